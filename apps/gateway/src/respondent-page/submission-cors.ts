import type { FastifyInstance, FastifyReply } from 'fastify';

// The respondent's page of a form may be served by either region's address,
// and it submits to the region of the form's account: a cross-origin request
// when that is the other one. Only the two base addresses' pages may do so
// (CORS with those origins, never `*`); answers to other origins carry no
// CORS headers, and browsers keep them from the calling page.
const submissionsPath = /^\/forms\/[^/?#]+\/submissions(?:\?|$)/;
// A file_upload question's upload, sent by the page the same way.
const filesPath = /^\/forms\/[^/?#]+\/files\/[^/?#]+(?:\?|$)/;

export function allowPageSubmissions(fastify: FastifyInstance, baseUrls: readonly string[]): void {
  const origins = new Set(baseUrls.map((url) => new URL(url).origin));
  const allowed = (origin: string | undefined): origin is string =>
    origin !== undefined && origins.has(origin);
  // The preflight of the page's POST (it sends JSON and an Idempotency-Key).
  const preflight = (request: { headers: { origin?: string } }, reply: FastifyReply) => {
    const origin = request.headers.origin;
    void reply.header('vary', 'Origin');
    if (allowed(origin)) {
      void reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'content-type, idempotency-key')
        .header('access-control-max-age', '600');
    }
    return reply.status(204).send();
  };
  fastify.options('/forms/:form_id/submissions', preflight);
  fastify.options('/forms/:form_id/files/:field_id', preflight);
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const origin = request.headers.origin;
    if (
      request.method === 'POST' &&
      (submissionsPath.test(request.url) || filesPath.test(request.url)) &&
      allowed(origin)
    ) {
      void reply
        .header('access-control-allow-origin', origin)
        .header('access-control-expose-headers', 'Idempotent-Replayed, Location, X-Request-Id')
        .header('vary', 'Origin');
    }
    done(null, payload);
  });
}
