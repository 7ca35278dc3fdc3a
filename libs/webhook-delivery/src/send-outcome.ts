import { SendFailureKind } from '@formline/db';
import { z } from 'zod';

export { SendFailureKind };

// How one POST to a receiver ended. A failure carries a kind that code
// decides on (retry policy, metrics) and a message for people (the delivery log).
export type SendOutcome =
  | { ok: true; statusCode: number; durationMs: number }
  | {
      ok: false;
      kind: SendFailureKind;
      /** The receiver's status when it answered (kind http_status). */
      statusCode: number | null;
      message: string;
      durationMs: number;
      /** From Retry-After, when the receiver sent one. */
      retryAfterMs: number | null;
    };

// The same, as kept with a queued job when the database could not take it.
export const sendOutcomeSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), statusCode: z.int(), durationMs: z.number() }),
  z.object({
    ok: z.literal(false),
    kind: z.enum(SendFailureKind),
    statusCode: z.int().nullable(),
    message: z.string(),
    durationMs: z.number(),
    retryAfterMs: z.number().nullable(),
  }),
]);

// Node's error codes of a connection that did not carry the request through.
const byCode: Record<string, SendFailureKind> = {
  ECONNREFUSED: SendFailureKind.connection_refused,
  ECONNRESET: SendFailureKind.connection_reset,
  EPIPE: SendFailureKind.connection_reset,
  ENOTFOUND: SendFailureKind.dns,
  EAI_AGAIN: SendFailureKind.dns,
  ENODATA: SendFailureKind.dns,
};

// TLS handshake and certificate errors (OpenSSL's codes as Node names them).
const tlsCodes =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_|HOSTNAME_MISMATCH)/;

// The kind of a network-level error of an HTTP request.
export function failureKindOf(error: unknown): SendFailureKind {
  const { name, code } = (error ?? {}) as { name?: string; code?: unknown };
  if (name === 'AbortError' || name === 'TimeoutError') return SendFailureKind.timeout;
  if (typeof code === 'string') {
    if (byCode[code]) return byCode[code];
    if (tlsCodes.test(code)) return SendFailureKind.tls;
  }
  return SendFailureKind.network;
}
