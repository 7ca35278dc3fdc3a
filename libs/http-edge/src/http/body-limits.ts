import { SetMetadata } from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import type { FastifyInstance } from 'fastify';

// Routes whose bodies may be larger than inputLimits.bodyBytes (an image as
// base64, a respondent's file): their own limit, set as fastify registers them.
export function allowLargerBodies(
  instance: FastifyInstance,
  routes: ReadonlyArray<{ method: string; url: string; bytes: number }>,
): void {
  instance.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const match = routes.find((entry) => entry.url === route.url && methods.includes(entry.method));
    if (match) route.bodyLimit = match.bytes;
  });
}

export const STREAMED_BODY = 'streamedBody';

// The route reads its body itself, as a stream (request.raw; streamRawBodies
// leaves it unread), so it has no @Body(): the `body` its @ApiOperation
// documents is what it streams on.
export const StreamedBody = () => SetMetadata(STREAMED_BODY, true);

// Routes that take raw bytes (`application/octet-stream`) and read them
// themselves, as a stream (request.raw), so that no limit of ours makes the
// server hold them: the body is left unread until the route pipes it on. The
// route bounds it (a declared Content-Length checked before any of it is
// read). Any other route is refused such a body, 415, before it is read.
export function streamRawBodies(
  instance: FastifyInstance,
  routes: ReadonlyArray<{ method: string; url: string }>,
): void {
  const streamed = new Set(routes.map(({ method, url }) => `${method} ${url}`));
  instance.addContentTypeParser('application/octet-stream', (request, _payload, done) => {
    if (streamed.has(`${request.method} ${request.routeOptions.url ?? ''}`)) {
      done(null, undefined);
      return;
    }
    done(
      new DomainError(ErrorCode.UnsupportedMediaType, 'This route takes a JSON body (application/json).'),
      undefined,
    );
  });
}
