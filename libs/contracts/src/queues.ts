// Every BullMQ queue of a region, in one place. A queue's name is where its
// waiting jobs live in Redis: never rename one, add a new queue beside it.
// Each queue's jobs, ids and options are defined with the code that uses them
// (the delivery queue: libs/webhook-delivery, delivery.queue.ts).
export enum QueueName {
  WebhookDelivery = 'webhook-delivery',
  WebhookFirstAttempts = 'webhook-first-attempts',
}
