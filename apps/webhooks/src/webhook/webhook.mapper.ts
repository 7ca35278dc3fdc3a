import type { WebhookResource } from '@formline/contracts';
import type { SecretBox } from '@formline/webhook-delivery';

interface WebhookRow {
  id: string;
  formId: string;
  tag: string;
  url: string;
  enabled: boolean;
  verifySsl: boolean;
  secretSealed: string | null;
  eventTypes: unknown;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

// A stored webhook in the shape of Typeform's Webhooks API, secret opened.
export function toWebhookResource(row: WebhookRow, secrets: SecretBox): WebhookResource {
  return {
    id: row.id,
    form_id: row.formId,
    tag: row.tag,
    url: row.url,
    enabled: row.enabled,
    verify_ssl: row.verifySsl,
    secret: row.secretSealed === null ? null : secrets.open(row.secretSealed),
    event_types: row.eventTypes as WebhookResource['event_types'],
    disabled_reason: row.disabledReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

// Whether a webhook asked for this kind of event. Only form_response exists (SPEC 6).
export function wantsFormResponses(eventTypes: unknown): boolean {
  return (eventTypes as WebhookResource['event_types'] | null)?.form_response === true;
}
