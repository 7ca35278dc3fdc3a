import {
  acceptRequestId,
  accessLogWriter,
  type AppLogger,
  observeHttpRequest,
  REQUEST_ID_HEADER,
} from '@formline/ops';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    requestId: string;
  }
}

// What every HTTP request leaves behind, whatever route answers it (errors and
// unknown paths included): its request id, taken from X-Request-Id or made up,
// answered in X-Request-Id and kept on the request, from which the handlers
// pass it on with their NATS calls (@RequestId()) and the error filter logs
// it; one log line; and its count, status and latency per route for /metrics.
// Install before routes are added.
//
// No AsyncLocalStorage here: the request id is passed by hand, so that the
// compiler finds a call that forgets it. On Node 20 its promise hooks also
// cost the read path ~20 µs of ~105 µs CPU per request; on 26 they are gone
// (docs/decisions/performance.md, "Request context on Node 26").
export function observeHttpRequests(fastify: FastifyInstance, logger: AppLogger): void {
  // Written by hand to pino's destination with the context bound once: the
  // line every request writes skips the Nest logger and pino's generic work.
  const accessLog = accessLogWriter(logger.pino.child({ context: 'HttpRequest' }));
  fastify.decorateRequest('requestId', '');
  fastify.addHook('onRequest', (request, reply, done) => {
    request.requestId = acceptRequestId(request.headers[REQUEST_ID_HEADER.toLowerCase()]);
    void reply.header(REQUEST_ID_HEADER, request.requestId);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    observeHttpRequest({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
    // The path without its query string: a query may carry what a log must not.
    accessLog({
      requestId: request.requestId,
      method: request.method,
      route: route ?? 'unmatched',
      path: pathOf(request.url),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
    });
    done();
  });
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

// The route's pattern (`/forms/:form_id`), not the path: one series per route.
function routeOf(request: FastifyRequest): string | undefined {
  const url = request.routeOptions.url;
  // Fastify's catch-all 404 handler has no route of its own.
  return url && !request.is404 ? url : undefined;
}
