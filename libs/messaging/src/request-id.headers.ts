import { headers, type MsgHdrs } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER } from '@formline/ops';

// The request id on NATS messages: a header, so payloads and their contracts
// stay as they are. RpcClient sends it on every request; the services'
// interceptor reads it back. For JetStream (the outbox relay publishing a
// stored submission, the webhooks consumer reading it) use the same two
// functions with the id stored beside the submission.

// The caller names the id (currentRequestId() in a service): none, no header.
export function natsHeadersWithRequestId(requestId: string | undefined): MsgHdrs | undefined {
  if (!requestId) return undefined;
  const h = headers();
  h.set(REQUEST_ID_HEADER, requestId);
  return h;
}

// Reads the id from a message's headers (nats.js MsgHdrs, as NatsContext.getHeaders() gives them).
export function requestIdFromNatsHeaders(messageHeaders: unknown): string | undefined {
  const h = messageHeaders as Pick<MsgHdrs, 'get'> | undefined;
  if (!h || typeof h.get !== 'function') return undefined;
  return h.get(REQUEST_ID_HEADER) || undefined;
}
