import http from 'node:http';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { forwardedAccountHeader, type AccessTokenPrincipal } from '@formline/contracts';
import { unavailableError } from '@formline/errors';
import { REQUEST_ID_HEADER } from '@formline/ops';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

// What of the caller's request the media app needs, and what of its answer
// the caller gets. Everything else (cookies, the token, hop-by-hop headers)
// stays on this side.
const requestHeaders = ['accept', 'content-type', 'if-none-match'] as const;
const answerHeaders = [
  'cache-control',
  'content-disposition',
  'content-type',
  'etag',
  'retry-after',
  'www-authenticate',
  'x-content-type-options',
] as const;

// Forwards a request the gateway let in to this region's media app
// (MEDIA_URL), with the caller's account, and streams the answer back as it
// comes: status, the headers above and the body, whatever it is (an image, an
// error body). The media app unreachable, or silent for
// GATEWAY_IDLE_TIMEOUT_MS, is a 503 with Retry-After, like any service of the
// region that does not answer.
@Injectable()
export class MediaClient implements OnApplicationShutdown {
  private readonly base: URL;
  private readonly idleMs: number;
  private readonly agent = new http.Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 4_000 });

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = new URL(config.MEDIA_URL);
    this.idleMs = config.GATEWAY_IDLE_TIMEOUT_MS;
  }

  forward(
    request: FastifyRequest,
    reply: FastifyReply,
    principal: AccessTokenPrincipal | undefined,
    body?: unknown,
  ): Promise<void> {
    const headers: Record<string, string> = { [REQUEST_ID_HEADER]: request.requestId };
    for (const name of requestHeaders) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    if (principal) headers[forwardedAccountHeader] = principal.accountId;
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise<void>((resolve, reject) => {
      const upstream = http.request(
        new URL(request.url, this.base),
        { method: request.method, headers, agent: this.agent },
        (answer) => {
          void reply.status(answer.statusCode ?? 502);
          for (const name of answerHeaders) {
            const value = answer.headers[name];
            if (value !== undefined) void reply.header(name, value);
          }
          void reply.send(answer);
          resolve();
        },
      );
      // A caller that leaves stops the work it asked for.
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) upstream.destroy();
      });
      upstream.setTimeout(this.idleMs, () => upstream.destroy(new Error('the media app fell silent')));
      upstream.once('error', () => reject(unavailableError('The media service')));
      upstream.end(payload);
    });
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }
}
