import { headers, type Msg, type MsgHdrs } from '@nats-io/transport-node';
import type { ByteReply } from '@formline/contracts';
import type { ErrorBody } from '@formline/errors';

// How a byte reply (ByteRpcContract) travels in one NATS message: the body is
// the bytes as they are; the meta is JSON in the `Formline-Meta` header. A
// failure is a message with the `Formline-Error` header whose body is the
// error body's JSON. JSON text holds no line break (one is escaped in a
// string, and JSON.stringify writes none between tokens), so a header can
// carry it.
export const byteReplyHeaders = { meta: 'Formline-Meta', error: 'Formline-Error' } as const;

export interface EncodedReply {
  body: Uint8Array;
  headers: MsgHdrs;
}

export function encodeByteReply(reply: ByteReply<unknown>): EncodedReply {
  const h = headers();
  h.set(byteReplyHeaders.meta, JSON.stringify(reply.meta));
  return { body: reply.body, headers: h };
}

export function encodeErrorReply(error: ErrorBody): EncodedReply {
  const h = headers();
  h.set(byteReplyHeaders.error, '1');
  return { body: Buffer.from(JSON.stringify(error)), headers: h };
}

// The reply as its service sent it, the bytes not copied. A message with
// neither header (not a byte reply at all) reads as a failure of the service.
export function byteReplyOf(message: Pick<Msg, 'headers' | 'data'>): ByteReply<unknown> | { err: unknown } {
  const h = message.headers;
  const body = message.data;
  if (h?.has(byteReplyHeaders.error)) return { err: parsedOrUndefined(new TextDecoder().decode(body)) };
  const meta = parsedOrUndefined(h?.get(byteReplyHeaders.meta) ?? '');
  if (meta === undefined) return { err: undefined };
  return { meta, body };
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
