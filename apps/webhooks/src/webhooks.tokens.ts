import { Queue } from 'bullmq';

// Injection tokens of the webhooks service.
export const WEBHOOKS_NATS = Symbol('WEBHOOKS_NATS');

// The region's webhook delivery queue (QueueName.WebhookDelivery), fed by this service.
export class DeliveryQueue extends Queue {}
