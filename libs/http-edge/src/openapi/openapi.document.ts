import {
  errorBodySchema,
  ErrorCode,
  httpStatusByCode,
  oauthErrorBodySchema,
  oauthErrorByCode,
} from '@formline/errors';
import { inputLimits } from '@formline/input';
import { REQUEST_ID_HEADER } from '@formline/ops';
import type { ApiOperationOptions } from './api-operation.decorator';
import type { z } from 'zod';
import { type JsonSchema, JsonSchemaSet, standaloneJsonSchema } from './json-schemas';
import { namedSchemas } from './openapi.components';
import { pathParamsOf, type RouteDescription } from './openapi.routes';

// The OpenAPI 3.1 document of the public API, built from the gateway's routes
// (openapi.routes.ts) and the zod schemas they validate with. Served at
// GET /openapi.json and rendered at GET /docs.

export interface OpenApiSettings {
  version: string;
  servers: { url: string; description: string }[];
}

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

// The version of the API the document describes; raise it with each release
// that changes the API.
export const apiVersion = '0.1.0';

// Routes the gateway serves itself, outside the controllers.
export const documentationRoutes = {
  home: '/',
  document: '/openapi.json',
  page: '/docs',
} as const;

const bearerScheme = 'bearerAuth';
const basicScheme = 'basicAuth';

// What any bearer-authenticated operation may answer: no or a bad token, a
// token without the scope, a token over its rate limit.
const bearerErrors = [
  ErrorCode.AuthenticationFailed,
  ErrorCode.InvalidToken,
  ErrorCode.TokenExpired,
  ErrorCode.TokenRevoked,
  ErrorCode.InsufficientScope,
  ErrorCode.RateLimited,
];
// What any operation taking the owner's email and password may answer.
const ownerErrors = [ErrorCode.AuthenticationFailed, ErrorCode.RateLimited];

export function buildOpenApiDocument(
  routes: readonly RouteDescription[],
  settings: OpenApiSettings,
): OpenApiDocument {
  const schemas = new JsonSchemaSet(namedSchemas);
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const route of routes) {
    if (!route.operation) continue;
    const tag = tagOf(route.controller);
    tags.add(tag);
    (paths[route.path] ??= {})[route.method] = operationOf(route, route.operation, tag, schemas);
  }
  Object.assign((paths[documentationRoutes.home] ??= {}), {
    get: builtinOperation(
      'getHome',
      'What this base address is: its region, where the API is described, a form to try. JSON unless HTML is asked for.',
      'application/json',
    ),
  });
  Object.assign((paths[documentationRoutes.document] ??= {}), {
    get: builtinOperation('getOpenApiDocument', 'This document (OpenAPI 3.1).', 'application/json'),
  });
  Object.assign((paths[documentationRoutes.page] ??= {}), {
    get: builtinOperation('getDocumentationPage', 'This document, as a page to read.', 'text/html'),
  });
  const components = schemas.resolve();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Formline API',
      version: settings.version,
      summary: 'Forms, responses and webhooks, Typeform-style, one stack per region.',
      description: [
        'Each region has its own base address; forms read the same on both, responses and webhooks',
        'live only in the region of their account (`GET /me` says which).',
        'Authenticate with `Authorization: bearer <token>`: a personal access token or an OAuth access',
        'token. Each operation names the one scope it needs. Personal tokens and OAuth applications are',
        "managed with the account owner's email and password (HTTP Basic); the OAuth endpoints take neither.",
        'Errors answer `{code, description, details?}`; a 500 names only an error id.',
        `Every answer carries \`${REQUEST_ID_HEADER}\`: yours if you sent a usable one, else a new one.`,
        'Quote it when reporting a problem.',
      ].join(' '),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: settings.servers,
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: components,
      securitySchemes: {
        [bearerScheme]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A personal access token or an OAuth access token. The scopes listed on an operation are the ones the token must hold.',
        },
        [basicScheme]: {
          type: 'http',
          scheme: 'basic',
          description:
            "The account owner's email and password; only the token and OAuth application routes take them, never a token.",
        },
      },
      parameters: {
        RequestId: {
          name: REQUEST_ID_HEADER,
          in: 'header',
          required: false,
          description:
            'Your id for this request, echoed in the answer and written in every log line about it (up to 128 letters, digits and `._:@/+=-`). Without it, one is made up.',
          schema: { type: 'string', maxLength: 128, pattern: '^[A-Za-z0-9._:@/+=-]{1,128}$' },
        },
      },
      headers: {
        RequestId: {
          description: 'The id of this request, as sent or made up; quote it when reporting a problem.',
          schema: { type: 'string' },
        },
      },
    },
  };
}

function operationOf(
  route: RouteDescription,
  operation: ApiOperationOptions,
  tag: string,
  schemas: JsonSchemaSet,
): Record<string, unknown> {
  const querySchema = route.queryPipeSchema ?? operation.query;
  const { security, accessLine } = securityOf(route, operation);
  const responses: Record<string, Record<string, unknown>> = {};
  for (const [status, success] of Object.entries(operation.responses)) {
    responses[status] = {
      description: success.description,
      headers: { ...requestIdHeader(), ...describedHeaders(success.headers) },
      ...(success.body
        ? { content: { 'application/json': { schema: schemas.use(success.body, 'output') } } }
        : success.contentType
          ? { content: Object.fromEntries([success.contentType].flat().map((type) => [type, {}])) }
          : {}),
    };
  }
  for (const [status, codes] of errorsOf(route, operation, querySchema !== undefined)) {
    const bodySchema = codes.some((code) => oauthErrorByCode[code]) ? oauthErrorBodySchema : errorBodySchema;
    const description = `Error: ${codes.map((code) => `\`${code}\``).join(', ')}.`;
    const json = {
      schema: { allOf: [schemas.use(bodySchema, 'output'), { properties: { code: { enum: codes } } }] },
    };
    // A status an operation also documents itself (a page shown with 400):
    // both answers, by media type.
    const documented = responses[status];
    responses[status] = documented
      ? {
          ...documented,
          description: `${documented.description as string} ${description}`,
          content: { ...(documented.content as object | undefined), 'application/json': json },
        }
      : { description, headers: requestIdHeader(), content: { 'application/json': json } };
  }
  return {
    operationId: `${tag}_${route.handler.split('.')[1]}`,
    tags: [tag],
    summary: operation.summary,
    ...(operation.description || accessLine
      ? { description: [operation.description, accessLine].filter(Boolean).join('\n\n') }
      : {}),
    security,
    ...(route.scope ? { 'x-required-scope': route.scope } : {}),
    ...(route.access?.kind === 'optional-scope' ? { 'x-scope-if-authenticated': route.access.scope } : {}),
    parameters: [
      ...pathParamsOf(route.path).map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string', maxLength: inputLimits.id },
      })),
      ...(querySchema ? queryParameters(querySchema) : []),
      ...route.headerParams
        .filter((name) => name.toLowerCase() !== 'authorization')
        .map((name) => ({
          name: headerName(name),
          in: 'header',
          required: false,
          schema: { type: 'string', maxLength: inputLimits.headerValue },
        })),
      { $ref: '#/components/parameters/RequestId' },
    ],
    ...(operation.body
      ? {
          requestBody: {
            required: operation.bodyOptional !== true,
            content: Object.fromEntries(
              (operation.bodyContentTypes ?? ['application/json']).map((type) => [
                type,
                { schema: schemas.use(operation.body!, 'input') },
              ]),
            ),
          },
        }
      : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
  };
}

// Who may call an operation, from the route's access declaration: a bearer
// token with the scope; nothing, or such a token; the owner's email and
// password; or what @ApiOperation says (a @Public route: `[]`, anyone).
function securityOf(
  route: RouteDescription,
  operation: ApiOperationOptions,
): { security: Record<string, string[]>[]; accessLine?: string } {
  const access = route.access;
  switch (access?.kind) {
    case 'scope':
      return {
        security: [{ [bearerScheme]: [access.scope] }],
        accessLine: `Requires scope \`${access.scope}\`.`,
      };
    case 'optional-scope':
      return {
        security: [{}, { [bearerScheme]: [access.scope] }],
        accessLine: `Open to anyone; a token, when sent, must hold scope \`${access.scope}\`.`,
      };
    case 'owner':
      return {
        security: [{ [basicScheme]: [] }],
        accessLine: "Takes the account owner's email and password (HTTP Basic), never a token.",
      };
    case 'public':
    case undefined:
      return { security: operation.security ?? [] };
  }
}

// Every error an operation can answer with, by status: what any operation
// may meet (the service down, an unforeseen failure), what its inputs and
// its token can cause, and what it declares.
function errorsOf(
  route: RouteDescription,
  operation: ApiOperationOptions,
  hasQuery: boolean,
): [string, ErrorCode[]][] {
  const codes = new Set<ErrorCode>([ErrorCode.InternalError, ErrorCode.ServiceUnavailable]);
  // A write may meet another request's write at the same moment (the
  // services answer that 409 CONFLICT, detail CONCURRENT_CHANGE).
  if (route.method !== 'get' && route.method !== 'head') codes.add(ErrorCode.Conflict);
  const kind = route.access?.kind;
  if (kind === 'scope' || kind === 'optional-scope') for (const code of bearerErrors) codes.add(code);
  if (kind === 'owner') for (const code of ownerErrors) codes.add(code);
  if (operation.body || hasQuery || pathParamsOf(route.path).length > 0) codes.add(ErrorCode.ValidationError);
  if (operation.body) {
    codes.add(ErrorCode.PayloadTooLarge);
    codes.add(ErrorCode.UnsupportedMediaType);
  }
  for (const code of operation.errors ?? []) codes.add(code);
  const byStatus = new Map<string, ErrorCode[]>();
  for (const code of codes) {
    const status = String(httpStatusByCode[code]);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus.entries()];
}

// One parameter per property of the query's object schema. Query schemas
// are flat and small: written out in full, never as components.
function queryParameters(schema: z.ZodObject): Record<string, unknown>[] {
  const { properties = {}, required = [] } = standaloneJsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: required.includes(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function builtinOperation(
  operationId: string,
  summary: string,
  contentType: string,
): Record<string, unknown> {
  return {
    operationId,
    tags: ['Documentation'],
    summary,
    security: [],
    responses: {
      '200': { description: summary, headers: requestIdHeader(), content: { [contentType]: {} } },
    },
  };
}

function requestIdHeader(): Record<string, unknown> {
  return { [REQUEST_ID_HEADER]: { $ref: '#/components/headers/RequestId' } };
}

function describedHeaders(headers: Record<string, string> | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).map(([name, description]) => [
      name,
      { description, schema: { type: 'string' } },
    ]),
  );
}

// `if-match` → `If-Match`.
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}

// `FormsController` → `forms`.
function tagOf(controller: string): string {
  const base = controller.replace(/Controller$/, '');
  return base.charAt(0).toLowerCase() + base.slice(1);
}
