import { RequestMethod, type Type } from '@nestjs/common';
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { z } from 'zod';
import { REQUIRED_SCOPE } from '../auth/required-scope.decorator';
import { type RouteAccess, routeAccessOf } from '../auth/route-access';
import { QueryPipe } from '../http/query.pipe';
import { STREAMED_BODY } from '../http/body-limits';
import { API_OPERATION, type ApiOperationOptions } from './api-operation.decorator';

// What NestJS knows about each route of the gateway's controllers, read from
// the metadata its decorators leave (the same metadata Nest routes by): path,
// method, status, the parameters the handler takes, its scope, and our
// @ApiOperation. The OpenAPI document is built from this and nothing else.

export interface RouteDescription {
  /** `FormsController.retrieve`, for messages. */
  handler: string;
  controller: string;
  method: string;
  /** OpenAPI style: `/forms/{form_id}`. */
  path: string;
  status: number;
  scope?: string;
  /** How the route is reached (@RequiredScope, @ScopeIfAuthenticated, @OwnerCredentials, @Public). */
  access?: RouteAccess;
  operation?: ApiOperationOptions;
  pathParams: string[];
  headerParams: string[];
  hasBody: boolean;
  hasQuery: boolean;
  /** The schema the route's QueryPipe validates the query with. */
  queryPipeSchema?: z.ZodObject;
}

interface RouteArgument {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

export function describeRoutes(controllers: readonly Type[]): RouteDescription[] {
  const routes: RouteDescription[] = [];
  for (const controller of controllers) {
    const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (paths === undefined) continue; // not a route
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
      const method = RequestMethod[requestMethod].toLowerCase();
      const args = Object.entries(
        (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, RouteArgument>,
      );
      const ofType = (type: RouteParamtypes) =>
        args.filter(([key]) => key.split(':')[0] === String(type)).map(([, arg]) => arg);
      const queryPipe = ofType(RouteParamtypes.QUERY)
        .flatMap((arg) => arg.pipes ?? [])
        .find((pipe): pipe is QueryPipe<z.ZodObject> => pipe instanceof QueryPipe);
      for (const prefix of prefixes.length ? prefixes : ['']) {
        for (const path of asArray(paths)) {
          routes.push({
            handler: `${controller.name}.${name}`,
            controller: controller.name,
            method,
            path: openApiPath(prefix, path),
            status:
              (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ??
              (requestMethod === RequestMethod.POST ? 201 : 200),
            scope: Reflect.getMetadata(REQUIRED_SCOPE, handler) as string | undefined,
            access: routeAccessOf(handler)[0],
            operation: Reflect.getMetadata(API_OPERATION, handler) as ApiOperationOptions | undefined,
            pathParams: ofType(RouteParamtypes.PARAM)
              .map((arg) => arg.data)
              .filter((data): data is string => typeof data === 'string'),
            headerParams: ofType(RouteParamtypes.HEADERS)
              .map((arg) => arg.data)
              .filter((data): data is string => typeof data === 'string'),
            hasBody:
              ofType(RouteParamtypes.BODY).length > 0 || Reflect.getMetadata(STREAMED_BODY, handler) === true,
            hasQuery: ofType(RouteParamtypes.QUERY).length > 0,
            queryPipeSchema: queryPipe?.schema,
          });
        }
      }
    }
  }
  return routes;
}

// What keeps a route out of the document, or the document from telling the
// truth about it. Empty when every route is documented.
export function routeDocumentationProblems(routes: readonly RouteDescription[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const say = (message: string) =>
      problems.push(`${route.handler} (${route.method.toUpperCase()} ${route.path}): ${message}`);
    const operation = route.operation;
    if (!operation) {
      say('no @ApiOperation');
      continue;
    }
    if (!route.access && !operation.security) say('neither @RequiredScope nor `security` in @ApiOperation');
    if (route.access?.kind === 'public' && !operation.security)
      say('@Public without `security` in @ApiOperation (`[]` for anyone)');
    if (!operation.responses[route.status])
      say(`answers ${route.status}, which @ApiOperation does not document`);
    if (route.hasBody && !operation.body) say('takes a body but documents no `body` schema');
    if (!route.hasBody && operation.body) say('documents a body it never reads');
    if (route.hasQuery && !route.queryPipeSchema && !operation.query)
      say('reads the query without a QueryPipe or a `query` schema');
    if (route.queryPipeSchema && operation.query && route.queryPipeSchema !== operation.query)
      say('documents another query schema than its QueryPipe validates with');
    for (const param of pathParamsOf(route.path))
      if (!route.pathParams.includes(param)) say(`path parameter {${param}} is not read with @Param`);
  }
  return problems;
}

export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]);
}

// `/forms/:form_id` (Nest, Fastify) → `/forms/{form_id}` (OpenAPI).
export function openApiPath(...parts: string[]): string {
  const joined = parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .map((segment) => segment.replace(/^:(\w+)$/, '{$1}'))
    .join('/');
  return `/${joined}`;
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
