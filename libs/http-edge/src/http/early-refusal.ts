import type { FastifyInstance } from 'fastify';

// A request refused before its body was read (a body declared over its
// route's limit, a content type no parser takes) keeps its socket, as the
// access gate's refusals do. Fastify answers those with `Connection: close`,
// and a socket closed under a client still writing makes the server's kernel
// reset the connection: the client's kernel then drops the answer it had
// received but not yet read, and the client sees ECONNRESET or EPIPE instead
// of its 413. Kept alive, Node discards the rest of the body as it comes
// (bounded by the request time limits, and never counted by load shedding),
// and the client reads its answer. A body read in part (a chunked one over
// the limit) keeps Fastify's close: its remainder cannot be told apart from
// a next request.
export function keepSocketsOfEarlyRefusals(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.readableDidRead && reply.getHeader('connection') === 'close')
      reply.removeHeader('connection');
    done(null, payload);
  });
}
