// Injection tokens of the responses service.
export const RESPONSES_NATS = Symbol('RESPONSES_NATS');
