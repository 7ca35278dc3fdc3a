// Every NATS subject of the system, declared once. Subjects name region-free
// domain facts, versioned: `<domain>.<entity>.<action>.v<n>`. Each region has its
// own NATS, so the same subject never crosses regions. Never rename one: add a
// new version next to it.
export const Subjects = {
  accountsTokenVerify: 'accounts.token.verify.v1',
  accountsProfileGet: 'accounts.profile.get.v1',
  formsFormCreate: 'forms.form.create.v1',
  formsFormList: 'forms.form.list.v1',
  accountsCredentialsVerify: 'accounts.credentials.verify.v1',
  accountsPersonalTokenCreate: 'accounts.personal-token.create.v1',
  accountsPersonalTokenList: 'accounts.personal-token.list.v1',
  accountsPersonalTokenRevoke: 'accounts.personal-token.revoke.v1',
  oauthApplicationCreate: 'oauth.application.create.v1',
  oauthApplicationList: 'oauth.application.list.v1',
  oauthApplicationDelete: 'oauth.application.delete.v1',
  oauthAuthorizationValidate: 'oauth.authorization.validate.v1',
  oauthAuthorizationApprove: 'oauth.authorization.approve.v1',
  oauthTokenIssue: 'oauth.token.issue.v1',
  oauthTokenRevoke: 'oauth.token.revoke.v1',
  oauthGrantList: 'oauth.grant.list.v1',
  oauthGrantRevoke: 'oauth.grant.revoke.v1',
  formsFormGet: 'forms.form.get.v1',
  formsFormReplace: 'forms.form.replace.v1',
  formsFormPatch: 'forms.form.patch.v1',
  formsFormDelete: 'forms.form.delete.v1',
  formsWorkspaceCreate: 'forms.workspace.create.v1',
  formsWorkspaceList: 'forms.workspace.list.v1',
  formsWorkspaceGet: 'forms.workspace.get.v1',
  formsWorkspacePatch: 'forms.workspace.patch.v1',
  formsWorkspaceDelete: 'forms.workspace.delete.v1',
  formsFormLocate: 'forms.form.locate.v1',
  formsFormSnapshot: 'forms.form.snapshot.v1',
  formsFormPage: 'forms.form.page.v1',
  formsFormMessagesGet: 'forms.form-messages.get.v1',
  formsFormMessagesReplace: 'forms.form-messages.replace.v1',
  formsThemeCreate: 'forms.theme.create.v1',
  formsThemeList: 'forms.theme.list.v1',
  formsThemeGet: 'forms.theme.get.v1',
  formsThemeReplace: 'forms.theme.replace.v1',
  formsThemePatch: 'forms.theme.patch.v1',
  formsThemeDelete: 'forms.theme.delete.v1',
  responsesSubmissionCreate: 'responses.submission.create.v1',
  responsesResponseList: 'responses.response.list.v1',
  responsesResponseDelete: 'responses.response.delete.v1',
  responsesResponseCount: 'responses.response.count.v1',
  webhooksWebhookUpsert: 'webhooks.webhook.upsert.v1',
  webhooksWebhookGet: 'webhooks.webhook.get.v1',
  webhooksWebhookList: 'webhooks.webhook.list.v1',
  webhooksWebhookDelete: 'webhooks.webhook.delete.v1',
  webhooksDeliveryList: 'webhooks.delivery.list.v1',
  webhooksDeliveryRedeliver: 'webhooks.delivery.redeliver.v1',
  // Events (published on JetStream, see streams.ts).
  responsesResponseSubmitted: 'responses.response.submitted.v1',
  // Announcements on core NATS for the gateway's caches (change-announcements.ts).
  accountsTokensRevoked: 'accounts.tokens.revoked.v1',
  formsFormChanged: 'forms.form.changed.v1',
} as const;

export type Subject = (typeof Subjects)[keyof typeof Subjects];

// Queue groups: replicas of one service share the work of a subject.
export const QueueGroups = {
  forms: 'forms',
  responses: 'responses',
  webhooks: 'webhooks',
} as const;
