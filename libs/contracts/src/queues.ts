// Every BullMQ queue of a region, in one place. A queue's name is where its
// waiting jobs live in Redis: never rename one, add a new queue beside it.
export enum QueueName {
  // One job per (event, webhook): its id is `${event_id}:${webhook_id}` and it
  // carries only the delivery id; the dispatcher loads the rest.
  WebhookDelivery = 'webhook-delivery',
}

export interface WebhookDeliveryJob {
  deliveryId: string;
  // A redelivery asked for through the API: one attempt, no retries.
  once?: boolean;
  // The request that caused it (the submission's X-Request-Id), for the logs
  // and the delivery's headers.
  requestId?: string;
}

// Deterministic, so an event consumed twice never enqueues twice. BullMQ
// refuses ':' in custom job ids, hence the dash.
export function webhookDeliveryJobId(eventId: string, webhookId: string): string {
  return `${eventId}-${webhookId}`;
}
