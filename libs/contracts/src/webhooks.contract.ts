import { boundedText, inputLimits, isPrototypeKey } from '@formline/input';
import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// Typeform's Webhooks API. A webhook belongs to a form and is named by its tag;
// it lives in the region of the form's account, next to the responses it sends.

// The kinds of event a webhook can subscribe to, as Typeform names them:
// completed submissions, and partial responses (respondents' progress saved
// before the final submit).
export const webhookEventTypes = ['form_response', 'form_response_partial'] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

// Strict: an event type this service does not know is refused with its name,
// never dropped (a webhook subscribed to nothing would never fire, silently).
export const webhookEventTypesInputSchema = z
  .strictObject({ form_response: z.boolean(), form_response_partial: z.boolean() })
  .partial();

// As returned: every kind named, false unless subscribed.
export const webhookEventTypesSchema = z.object({
  form_response: z.boolean(),
  form_response_partial: z.boolean(),
});
export type WebhookEventTypes = z.output<typeof webhookEventTypesSchema>;

// The body of PUT/POST /forms/{form_id}/webhooks/{tag}. Every field may be
// omitted on a change (toggling `enabled` alone keeps the url); creating needs url.
export const webhookInputSchema = z.strictObject({
  url: boundedText(inputLimits.url).min(1).optional(),
  enabled: z.boolean().optional(),
  secret: boundedText(256).min(1).nullable().optional(),
  verify_ssl: z.boolean().optional(),
  event_types: webhookEventTypesInputSchema.optional(),
});
export type WebhookInput = z.output<typeof webhookInputSchema>;

export const webhookResourceSchema = z.object({
  id: z.string(),
  form_id: z.string(),
  tag: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  verify_ssl: z.boolean(),
  secret: z.string().nullable(),
  event_types: webhookEventTypesSchema,
  // Set when delivery stopped on its own (the receiver answered 410, or retries ran out).
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookResource = z.output<typeof webhookResourceSchema>;

// Names a webhook within its form, in its URL path.
// It starts with a letter or digit and holds no `..` (tags appear in paths and
// logs) and is never a prototype name (tags key objects in clients' code).
export const webhookTagSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][\w.-]*$/, 'letters, digits, "_", "-" and "." only, starting with a letter or digit')
  .refine((tag) => !tag.includes('..'), { error: 'may not contain ".."' })
  .refine((tag) => !isPrototypeKey(tag), { error: 'may not be __proto__, constructor or prototype' });

const webhookKey = {
  accountId: z.string().min(1),
  formId: z.string().min(1),
  tag: webhookTagSchema,
};

export const upsertWebhook = defineRpc({
  subject: Subjects.webhooksWebhookUpsert,
  request: z.object({ ...webhookKey, input: webhookInputSchema }),
  reply: z.object({ webhook: webhookResourceSchema, created: z.boolean() }),
});

export const getWebhook = defineRpc({
  subject: Subjects.webhooksWebhookGet,
  request: z.object(webhookKey),
  reply: webhookResourceSchema,
});

export const listWebhooks = defineRpc({
  subject: Subjects.webhooksWebhookList,
  request: z.object({ accountId: webhookKey.accountId, formId: webhookKey.formId }),
  reply: z.object({ items: z.array(webhookResourceSchema) }),
});

export const deleteWebhook = defineRpc({
  subject: Subjects.webhooksWebhookDelete,
  request: z.object(webhookKey),
  reply: z.object({ deleted: z.boolean() }),
});

// Why an attempt did not end in a 2xx: what a program decides on (the
// webhooks database's enum send_failure_kind); `error` says it for people.
export const sendFailureKinds = [
  'timeout',
  'connection_refused',
  'connection_reset',
  'dns',
  'tls',
  'http_status',
  'address_refused',
  'network',
  'interrupted',
] as const;

// How an attempt stands: `sending` while its POST may still be under way;
// `interrupted` when its dispatcher stopped before learning the answer (the
// receiver may have it; a later attempt carries the same webhook-id).
export const attemptStatuses = ['sending', 'succeeded', 'failed', 'interrupted'] as const;

// One delivery of one event to one webhook, with its attempts, newest first.
export const deliveryAttemptSchema = z.object({
  attempted_at: z.string(),
  status: z.enum(attemptStatuses),
  status_code: z.int().nullable(),
  duration_ms: z.int(),
  // Null for a 2xx and while sending; `interrupted`: see `status`.
  error_kind: z.enum(sendFailureKinds).nullable(),
  error: z.string().nullable(),
  next_retry_at: z.string().nullable(),
});

export const deliveryResourceSchema = z.object({
  id: z.string(),
  event_id: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempt_count: z.int(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  attempts: z.array(deliveryAttemptSchema),
});
export type DeliveryResource = z.output<typeof deliveryResourceSchema>;

export const listDeliveries = defineRpc({
  subject: Subjects.webhooksDeliveryList,
  // Newest first; `before`/`after` are delivery ids (cursors), as the Responses API pages.
  request: z.object({
    ...webhookKey,
    pageSize: z.int().min(1).max(200),
    before: z.string().min(1).max(64).optional(),
    after: z.string().min(1).max(64).optional(),
  }),
  reply: z.object({ items: z.array(deliveryResourceSchema) }),
});

export const redeliverDelivery = defineRpc({
  subject: Subjects.webhooksDeliveryRedeliver,
  request: z.object({ ...webhookKey, deliveryId: z.string().min(1) }),
  reply: deliveryResourceSchema,
});

// An extension (Typeform has no delivery log): every failed delivery of a
// webhook created in a window, sent once more each as redeliverDelivery
// does, the oldest first and at most `limit` in one request; `more` when the
// limit was reached (ask again: those sent are failed no longer).
export const redeliverFailedDeliveries = defineRpc({
  subject: Subjects.webhooksDeliveryRedeliverFailed,
  request: z.object({
    ...webhookKey,
    since: z.iso.datetime(),
    until: z.iso.datetime(),
    limit: z.int().min(1).max(1000),
  }),
  reply: z.object({ redelivered: z.int(), more: z.boolean() }),
});

// An extension: a test delivery, sent once to the webhook (even turned off)
// and kept in its log like any other: Typeform's payload with no answers,
// its token starting `test-` so a receiver can tell it from a response.
export const sendTestDelivery = defineRpc({
  subject: Subjects.webhooksDeliveryTest,
  request: z.object(webhookKey),
  reply: deliveryResourceSchema,
});
