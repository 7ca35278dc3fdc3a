import type { WebhookInput, WebhookResource } from '@formline/contracts';
import { type ConsoleTexts, englishTexts } from './console.texts';

// The webhook editor's fields, and the body of PUT /forms/{id}/webhooks/{tag}
// they become. The secret is write-only in the console: the API does give it
// back, but the console never puts it in the page, so an unchanged secret is
// simply not sent (the API keeps it), a typed one replaces it, and removing
// it sends null.
export interface WebhookDraft {
  tag: string;
  url: string;
  /** A new secret; empty keeps the one stored. */
  secret: string;
  removeSecret: boolean;
  enabled: boolean;
  verifySsl: boolean;
  formResponse: boolean;
  formResponsePartial: boolean;
}

/** A problem with one field of the draft, said in words, for the field's id. */
export interface DraftProblem {
  field: 'tag' | 'url' | 'secret' | 'event_types';
  message: string;
}

// The API's limits (webhookTagSchema, webhookInputSchema), checked before
// sending so a mistake is shown beside its field; the API checks them again.
const tagPattern = /^[A-Za-z0-9][\w.-]*$/;
const prototypeNames = ['__proto__', 'constructor', 'prototype'];
export const tagMaxLength = 100;
export const urlMaxLength = 2048;
export const secretMaxLength = 256;

export function draftOf(webhook?: WebhookResource): WebhookDraft {
  return {
    tag: webhook?.tag ?? '',
    url: webhook?.url ?? '',
    secret: '',
    removeSecret: false,
    // A new webhook is on unless turned off: the API's default (off) would
    // leave a webhook made here silent, which is rarely what was meant.
    enabled: webhook?.enabled ?? true,
    verifySsl: webhook?.verify_ssl ?? true,
    formResponse: webhook?.event_types.form_response ?? true,
    formResponsePartial: webhook?.event_types.form_response_partial ?? false,
  };
}

export function problemsOf(
  draft: WebhookDraft,
  creating: boolean,
  { t }: ConsoleTexts = englishTexts,
): DraftProblem[] {
  const problems: DraftProblem[] = [];
  const tag = draft.tag.trim();
  if (creating) {
    if (tag === '') problems.push({ field: 'tag', message: t('webhook.noTag') });
    else if (tag.length > tagMaxLength || !tagPattern.test(tag) || tag.includes('..'))
      problems.push({
        field: 'tag',
        message: t('webhook.badTag', { max: tagMaxLength }),
      });
    else if (prototypeNames.includes(tag)) problems.push({ field: 'tag', message: t('webhook.reservedTag') });
  }
  const url = draft.url.trim();
  if (url === '') problems.push({ field: 'url', message: t('webhook.noUrl') });
  else if (url.length > urlMaxLength || !/^https?:\/\//i.test(url))
    problems.push({ field: 'url', message: t('webhook.badUrl') });
  if (draft.secret.length > secretMaxLength)
    problems.push({ field: 'secret', message: t('webhook.longSecret', { max: secretMaxLength }) });
  if (!draft.formResponse && !draft.formResponsePartial)
    problems.push({
      field: 'event_types',
      message: t('webhook.noEvents'),
    });
  return problems;
}

export function bodyOf(draft: WebhookDraft): WebhookInput {
  const body: WebhookInput = {
    url: draft.url.trim(),
    enabled: draft.enabled,
    verify_ssl: draft.verifySsl,
    event_types: {
      form_response: draft.formResponse,
      form_response_partial: draft.formResponsePartial,
    },
  };
  if (draft.removeSecret) body.secret = null;
  else if (draft.secret !== '') body.secret = draft.secret;
  return body;
}
