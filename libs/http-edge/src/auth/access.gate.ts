import type { FastifyInstance } from 'fastify';
import type { RouteDescription } from '../openapi/openapi.routes';
import { openApiPath } from '../openapi/openapi.routes';
import type { AccessGuard } from './access.guard';
import type { AuthenticatedRequest } from './authenticated-request';
import type { RouteAccess } from './route-access';

// Decides before reading: AccessGuard's decision (authentication, scope, the
// rate limits that apply to the caller) taken at Fastify's onRequest stage,
// from the same access declarations, instead of after Fastify has read and
// parsed the body. A refused request is answered at once (401, 403, 429),
// its body never buffered: an anonymous client cannot make the gateway hold
// 5 MB before telling it 401. Whatever of the body the client sends anyway
// is discarded as it comes (Node does so once the answer is sent), and the
// socket is kept: closing it under a client still writing would make its
// kernel reset the connection, losing the answer. The guard then sees the
// decision and lets the request through.
export class AccessGate {
  // Route pattern -> method -> access; filled once the routes are known.
  private readonly routes = new Map<string, Map<string, RouteAccess>>();
  private guard?: AccessGuard;

  // Call before the routes are added: the gate runs after the load shedder
  // and the request id, before any body is read.
  install(fastify: FastifyInstance): void {
    fastify.decorateRequest('accessDecided', false);
    fastify.addHook('onRequest', (request, _reply, done) => {
      const access = this.routes.get(request.routeOptions.url ?? '')?.get(methodOf(request.method));
      if (!access || !this.guard) {
        done();
        return;
      }
      const refuse = (error: unknown) => done(error as Error);
      let decided: true | Promise<true>;
      try {
        decided = this.guard.decide(request as unknown as AuthenticatedRequest, access);
      } catch (error) {
        refuse(error);
        return;
      }
      if (decided === true) done();
      else decided.then(() => done(), refuse);
    });
    // An upload's reservation (AccessGuard) is given back when its request
    // ends without the route keeping it: refused later, failed, or abandoned
    // by its client.
    const release = (request: unknown) =>
      void (request as AuthenticatedRequest).uploadReservation?.release().catch(() => undefined);
    fastify.addHook('onResponse', (request, _reply, done) => {
      release(request);
      done();
    });
    fastify.addHook('onRequestAbort', (request, done) => {
      release(request);
      done();
    });
  }

  // Once Nest has made its routes: where each route's declaration is, and who decides.
  bind(
    guard: AccessGuard,
    served: ReadonlyArray<{ method: string; url: string }>,
    described: RouteDescription[],
  ): void {
    this.guard = guard;
    const byPath = new Map(described.map((route) => [`${route.method} ${route.path}`, route.access]));
    for (const { method, url } of served) {
      const access = byPath.get(`${method.toLowerCase()} ${openApiPath(url)}`);
      if (!access) continue;
      let methods = this.routes.get(url);
      if (!methods) this.routes.set(url, (methods = new Map<string, RouteAccess>()));
      methods.set(method.toUpperCase(), access);
    }
  }
}

// Fastify answers HEAD with its GET route.
function methodOf(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}
