import type { WebhookEventType, WebhookEventTypes, WebhookResource } from '@formline/contracts';
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
    event_types: eventTypesOf(row.eventTypes),
    disabled_reason: row.disabledReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

// The stored subscription, every kind named: a kind never stored is off (rows
// written before partial responses existed hold form_response alone).
export function eventTypesOf(stored: unknown): WebhookEventTypes {
  const types = (typeof stored === 'object' && stored !== null ? stored : {}) as Partial<WebhookEventTypes>;
  return {
    form_response: types.form_response === true,
    form_response_partial: types.form_response_partial === true,
  };
}

// Whether a webhook asked for this kind of event.
export function wantsEvent(stored: unknown, eventType: WebhookEventType): boolean {
  return eventTypesOf(stored)[eventType];
}
