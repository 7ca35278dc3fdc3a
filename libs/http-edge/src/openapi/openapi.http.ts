import type { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { docsPageContentSecurityPolicy, docsPageHtml } from './docs.page';
import {
  homeDocument,
  homePageContentSecurityPolicy,
  homePageHtml,
  type HomeSettings,
  prefersHtml,
} from './home.page';
import { documentationRoutes, type OpenApiDocument } from './openapi.document';
import { openApiPath } from './openapi.routes';

// Serving the document, and making sure it covers everything served.

export interface ServedRoute {
  method: string;
  url: string;
}

// Every route Fastify will serve, as it is added (Nest's and ours alike).
// Call before the routes are added, i.e. before app.init().
export function collectServedRoutes(fastify: FastifyInstance): ServedRoute[] {
  const served: ServedRoute[] = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) served.push({ method: method.toLowerCase(), url: route.url });
  });
  return served;
}

// The routes the document does not describe; HEAD routes are Fastify's own
// twins of GET routes, OPTIONS routes answer browsers' CORS preflights.
export function undocumentedRoutes(served: readonly ServedRoute[], document: OpenApiDocument): string[] {
  return served
    .filter(({ method }) => method !== 'head' && method !== 'options')
    .filter(({ method, url }) => !document.paths[openApiPath(url)]?.[method])
    .map(({ method, url }) => `${method.toUpperCase()} ${url}`);
}

// Every controller of the running app, from every module.
export function controllersOf(app: INestApplication): Type[] {
  const modules = app.get(ModulesContainer);
  return [...modules.values()].flatMap((module) =>
    [...module.controllers.values()].map((wrapper) => wrapper.metatype as Type),
  );
}

// GET /, GET /openapi.json and GET /docs, served by Fastify directly: public,
// never behind the token guard, and answered without asking any service.
export function serveOpenApi(fastify: FastifyInstance, document: OpenApiDocument, home: HomeSettings): void {
  const json = JSON.stringify(document);
  const homeJson = JSON.stringify(homeDocument(home));
  const homeHtml = homePageHtml(home);
  fastify.get(documentationRoutes.home, (request, reply) =>
    prefersHtml(request.headers.accept)
      ? reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('content-security-policy', homePageContentSecurityPolicy)
          .header('vary', 'accept')
          .send(homeHtml)
      : reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('vary', 'accept')
          .send(homeJson),
  );
  fastify.get(documentationRoutes.document, (_request, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send(json),
  );
  fastify.get(documentationRoutes.page, (_request, reply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', docsPageContentSecurityPolicy)
      .header('x-content-type-options', 'nosniff')
      .send(docsPageHtml),
  );
}
