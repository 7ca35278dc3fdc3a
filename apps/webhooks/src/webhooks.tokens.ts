// Injection tokens of the webhooks service.
export const WEBHOOKS_NATS = Symbol('WEBHOOKS_NATS');
