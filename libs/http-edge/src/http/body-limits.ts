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
