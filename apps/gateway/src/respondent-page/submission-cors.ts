import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// The respondent's page of a form may be served by either region's address,
// and it submits to the region of the form's account: a cross-origin request
// when that is the other one. Only the two base addresses' pages may do so
// (CORS with those origins, never `*`); answers to other origins carry no
// CORS headers, and browsers keep them from the calling page.
const submissionsPath = /^\/forms\/[^/?#]+\/submissions(?:\/partial)?(?:\?|$)/;

export function allowPageSubmissions(fastify: FastifyInstance, baseUrls: readonly string[]): void {
  const origins = new Set(baseUrls.map((url) => new URL(url).origin));
  const allowed = (origin: string | undefined): origin is string =>
    origin !== undefined && origins.has(origin);
  // The preflight of the page's POSTs (JSON, and an Idempotency-Key on the
  // final submission): the submission, and its partial saves before it.
  const preflight = (request: FastifyRequest, reply: FastifyReply) => {
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
  fastify.options('/forms/:form_id/submissions/partial', preflight);
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const origin = request.headers.origin;
    if (request.method === 'POST' && submissionsPath.test(request.url) && allowed(origin)) {
      void reply
        .header('access-control-allow-origin', origin)
        .header('access-control-expose-headers', 'Idempotent-Replayed, Location, X-Request-Id')
        .header('vary', 'Origin');
    }
    done(null, payload);
  });
}
