import http from 'node:http';
import https from 'node:https';
import {
  type CheckedTarget,
  checkTarget,
  type HostResolver,
  type OutboundUrlPolicy,
  requestTo,
  resolveHost,
  UrlRefused,
} from '@formline/outbound-url';
import { failureKindOf, SendFailureKind, type SendOutcome } from '@formline/webhook-delivery';

export interface SendRequest {
  url: string;
  verifySsl: boolean;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

// Connections to receivers stay open between deliveries: most webhooks go to
// a few receivers, and a new TCP (and TLS) connection per delivery cost the
// dispatcher more CPU than the rest of a send. A kept socket was checked by
// the policy when it connected; certificate checking is part of the pool's
// key, so a `verifySsl: false` send never shares a socket with a checked one.
// Idle sockets close after 4 s, before a receiver's usual 5 s keep-alive ends
// (Node also honours the receiver's own Keep-Alive hint).
const keptAlive = {
  keepAlive: true,
  maxSockets: 64,
  maxFreeSockets: 16,
  timeout: 4_000,
  scheduling: 'lifo',
} as const;
const agents = { 'http:': new http.Agent(keptAlive), 'https:': new https.Agent(keptAlive) };

// One POST to a receiver. Redirects are not followed (a 3xx is a failure), the
// target is checked again now (checkTarget: within the send's deadline, as
// `timeoutMs` covers the look-up and the exchange, the socket connecting only
// to the addresses checked). `verifySsl` false skips certificate checks for
// this request alone.
export async function sendWebhook(
  request: SendRequest,
  policy: OutboundUrlPolicy,
  resolver: HostResolver = resolveHost,
): Promise<SendOutcome> {
  const started = Date.now();
  const failed = (
    kind: SendFailureKind,
    message: string,
    statusCode: number | null = null,
    retryAfterMs: number | null = null,
  ): SendOutcome => ({
    ok: false,
    kind,
    statusCode,
    message,
    durationMs: Date.now() - started,
    retryAfterMs,
  });
  const answered = (statusCode: number, retryAfterMs: number | null): SendOutcome =>
    statusCode >= 200 && statusCode < 300
      ? { ok: true, statusCode, durationMs: Date.now() - started }
      : failed(SendFailureKind.http_status, httpError(statusCode), statusCode, retryAfterMs);
  const signal = AbortSignal.timeout(request.timeoutMs);
  const late = () => failed(SendFailureKind.timeout, `no answer within ${request.timeoutMs} ms`);
  let target: CheckedTarget;
  try {
    target = await checkTarget(request.url, policy, signal, resolver);
  } catch (error) {
    if (signal.aborted) return late();
    return error instanceof UrlRefused
      ? failed(SendFailureKind.address_refused, `url refused: ${error.message}`)
      : failed(failureKindOf(error), String(error));
  }
  return new Promise<SendOutcome>((resolve) => {
    const req = requestTo(target, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body).toString() },
      agent: target.url.protocol === 'https:' ? agents['https:'] : agents['http:'],
      rejectUnauthorized: request.verifySsl,
      signal,
    });
    req.on('response', (response) => {
      const statusCode = response.statusCode ?? 0;
      const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      // The body is not used; reading it lets the connection finish cleanly.
      response.resume();
      response.on('end', () => resolve(answered(statusCode, retryAfterMs)));
      response.on('error', () => resolve(answered(statusCode, retryAfterMs)));
    });
    req.on('error', (error) => {
      // The policy's refusal inside the DNS lookup arrives here too.
      if (error instanceof UrlRefused) {
        resolve(failed(SendFailureKind.address_refused, `url refused: ${error.message}`));
        return;
      }
      const kind = failureKindOf(error);
      resolve(kind === SendFailureKind.timeout ? late() : failed(kind, error.message));
    });
    req.end(request.body);
  });
}

function httpError(statusCode: number): string {
  if (statusCode >= 300 && statusCode < 400) return `HTTP ${statusCode}: redirects are not followed`;
  return `HTTP ${statusCode}`;
}

// Retry-After as seconds or as an HTTP date.
function parseRetryAfter(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
