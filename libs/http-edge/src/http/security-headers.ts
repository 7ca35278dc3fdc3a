import type { FastifyInstance } from 'fastify';

// Headers every answer of the gateway carries, whatever route (or error)
// makes it: `X-Content-Type-Options: nosniff`, so no browser ever reads an
// answer as another type than it says (a JSON error or an uploaded file run
// as a script or a page); and, when the region's base address is https,
// `Strict-Transport-Security`, so a browser that reached it once never speaks
// plain http to it again (a year; not for subdomains, which are not ours to
// decide).
export function installSecurityHeaders(fastify: FastifyInstance, options: { https: boolean }): void {
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  if (options.https) headers['strict-transport-security'] = 'max-age=31536000';
  fastify.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
