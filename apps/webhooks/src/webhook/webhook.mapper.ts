import {
  type ResponseSubmittedEvent,
  type WebhookEventType,
  type WebhookEventTypes,
  type WebhookResource,
  wholeSecondsIso,
} from '@formline/contracts';
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
    created_at: wholeSecondsIso(row.createdAt),
    updated_at: wholeSecondsIso(row.updatedAt),
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

// Whether a webhook receives this event: the kinds it subscribed to, and
// every partial response of a form whose settings send partial responses to
// all integrations (Typeform's partial_responses_to_all_integrations, carried
// in the payload's definition.settings as Typeform's payloads carry it).
export function wantsEvent(stored: unknown, event: ResponseSubmittedEvent): boolean {
  const eventType: WebhookEventType = event.event_type;
  if (eventTypesOf(stored)[eventType]) return true;
  const definition = event.form_response.definition as
    { settings?: { partial_responses_to_all_integrations?: unknown } } | undefined;
  return (
    eventType === 'form_response_partial' &&
    definition?.settings?.partial_responses_to_all_integrations === true
  );
}
