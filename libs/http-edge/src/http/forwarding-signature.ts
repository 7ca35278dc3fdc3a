import { createHmac, timingSafeEqual } from 'node:crypto';
import { forwardedAccountHeader, forwardedSignatureHeader } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import type { FastifyInstance } from 'fastify';

// A request the gateway forwards to the media app, as the gateway signs it
// and media checks it (media-forwarding contract): `v1=<unix seconds>.<mac>`,
// the mac an HMAC-SHA256 with MEDIA_FORWARDING_KEY over the version, the
// time, the method, the path with its query and the caller's account (empty
// for an anonymous caller). The body is not signed: it is streamed, and the
// path names what it is for. A signature is good for `maxAgeSeconds` either
// way of media's clock, so one seen on the network cannot be replayed later.
export interface ForwardedRequest {
  method: string;
  url: string;
  accountId: string | undefined;
}

const version = 'v1';
const maxAgeSeconds = 60;
// What a signature header may be: bounded, no backtracking.
const signatureFormat = /^v1=(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function macOf(key: Buffer, seconds: number, request: ForwardedRequest): string {
  return createHmac('sha256', key)
    .update([version, seconds, request.method.toUpperCase(), request.url, request.accountId ?? ''].join('\n'))
    .digest('base64url');
}

export function forwardingKey(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}

// The headers the gateway adds to a request it forwards: the account, when
// there is one, and the signature.
export function forwardingHeaders(
  key: Buffer,
  request: ForwardedRequest,
  now = Date.now(),
): Record<string, string> {
  const seconds = Math.floor(now / 1000);
  const headers: Record<string, string> = {
    [forwardedSignatureHeader]: `${version}=${seconds}.${macOf(key, seconds, request)}`,
  };
  if (request.accountId !== undefined) headers[forwardedAccountHeader] = request.accountId;
  return headers;
}

// Whether `signature` is the gateway's, recent, for this very request.
export function isForwardedByGateway(
  key: Buffer,
  request: ForwardedRequest,
  signature: unknown,
  now = Date.now(),
): boolean {
  const parsed = typeof signature === 'string' ? signatureFormat.exec(signature) : null;
  if (!parsed) return false;
  const seconds = Number(parsed[1]);
  if (Math.abs(now / 1000 - seconds) > maxAgeSeconds) return false;
  const expected = Buffer.from(macOf(key, seconds, request));
  const given = Buffer.from(parsed[2]);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// The media app's door: before anything of a request is read, a request the
// gateway did not sign (or signed for another path, account or time) is
// answered 401 with the error body.
export function requireGatewaySignature(fastify: FastifyInstance, key: Buffer): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const account = request.headers[forwardedAccountHeader];
    const forwarded: ForwardedRequest = {
      method: request.method,
      url: request.url,
      accountId: typeof account === 'string' ? account : undefined,
    };
    if (isForwardedByGateway(key, forwarded, request.headers[forwardedSignatureHeader])) return done();
    done(
      new DomainError(
        ErrorCode.AuthenticationFailed,
        "This app serves only requests forwarded by its region's gateway.",
      ),
    );
  });
}
