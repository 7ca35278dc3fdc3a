import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

// The request id follows one submission from the gateway to the webhook
// receiver: taken from the caller's X-Request-Id (or made up), and it leaves
// each process on every hop: NATS headers, the stored response, the delivery
// job, the webhook POST. In the services it rides in AsyncLocalStorage through
// every await of the code that handles a message, so logs carry it without
// passing it by hand; each hop reads it back with runWithRequestId(). The
// gateway, whose every request would pay for the storage's promise hooks,
// keeps it on the HTTP request and passes it on explicitly instead.

export const REQUEST_ID_HEADER = 'X-Request-Id';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

// A caller's id is kept only if it is short and plain: it lands in every log
// line, so it must not be able to forge lines or blow them up.
const acceptable = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function newRequestId(): string {
  return randomUUID();
}

// The caller's id when it is usable, else a new one.
export function acceptRequestId(value: unknown): string {
  const candidate = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof candidate === 'string' && acceptable.test(candidate) ? candidate : newRequestId();
}

// Runs `work` (and everything it awaits) under this request id. Without an id
// (a message from an older sender, a job enqueued before ids existed) a new
// one is made, so every line of the work still shares one id.
export function runWithRequestId<T>(requestId: string | undefined, work: () => T): T {
  return storage.run({ requestId: acceptRequestId(requestId) }, work);
}

// The id of the request being handled, if any.
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

// Headers for an outgoing HTTP call that continues the current request
// (the dispatcher's webhook POST): `{ 'X-Request-Id': id }`, or none.
export function requestIdHeaders(requestId = currentRequestId()): Record<string, string> {
  return requestId ? { [REQUEST_ID_HEADER]: requestId } : {};
}

// For a queued job or a stored row (a delivery job, a response and its
// outbox row): the data with the current request id beside it, so whoever
// picks it up later continues the same trail with runWithRequestId(data.requestId, ...).
export function withRequestId<T extends object>(data: T): T & { requestId?: string } {
  const requestId = currentRequestId();
  return requestId ? { ...data, requestId } : data;
}
