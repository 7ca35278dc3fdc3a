import { Body, Controller, Get, Param, Post, Query, type Type } from '@nestjs/common';
import { parseConfig } from '@formline/config';
import { ErrorCode } from '@formline/errors';
import { openApiDocumentProblems } from '@formline/testing';
import { z } from 'zod';
import { gatewayConfigSchema } from '@formline/app-config';
import {
  RequiredScope,
  QueryPipe,
  ApiOperation,
  buildOpenApiDocument,
  documentationRoutes,
  undocumentedRoutes,
  describeRoutes,
  routeDocumentationProblems,
} from '@formline/http-edge';
import { GatewayModule } from '../gateway.module';

const config = parseConfig(gatewayConfigSchema, {
  REGION: 'us',
  BASE_URL: 'https://api.example.com',
  EU_BASE_URL: 'https://api.eu.example.com',
  HTTP_PORT: '8080',
  MEDIA_URL: 'http://media',
  MEDIA_FORWARDING_KEY: Buffer.alloc(32, 1).toString('base64'),
  OPS_PORT: '9090',
});
// The controllers the gateway serves, as its module declares them.
const controllers = GatewayModule.forConfig(config).controllers as Type[];
const settings = { version: '0.1.0', servers: [{ url: 'https://api.example.com', description: 'us' }] };
const routes = describeRoutes(controllers);
const document = buildOpenApiDocument(routes, settings);
const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, operation]) => ({ path, method, operation: operation as any })),
);

describe('the OpenAPI document of the gateway', () => {
  it('documents every route of every controller', () => {
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect(routeDocumentationProblems(routes)).toEqual([]);
    for (const route of routes) expect(document.paths[route.path]?.[route.method]).toBeDefined();
  });

  it('is valid OpenAPI 3.1, every schema valid JSON Schema with its references resolved', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(openApiDocumentProblems(document)).toEqual([]);
  });

  it('names who may call each operation, as the route declares it', () => {
    for (const route of routes) {
      const operation = document.paths[route.path][route.method] as any;
      const access = route.access!;
      switch (access.kind) {
        case 'scope':
          expect(operation.security).toEqual([{ bearerAuth: [access.scope] }]);
          expect(operation.description).toContain(`\`${access.scope}\``);
          break;
        case 'optional-scope':
          expect(operation.security).toEqual([{}, { bearerAuth: [access.scope] }]);
          expect(operation.description).toContain(`\`${access.scope}\``);
          break;
        case 'owner':
          expect(operation.security).toEqual([{ basicAuth: [] }]);
          break;
        case 'public':
          expect(operation.security).toEqual([]);
          break;
      }
    }
    expect(Object.keys((document.components as any).securitySchemes as object).sort()).toEqual([
      'basicAuth',
      'bearerAuth',
    ]);
    expect((document.paths['/forms/{form_id}/submissions'].post as any).security).toEqual([
      {},
      { bearerAuth: ['responses:write'] },
    ]);
  });

  it('documents the error body and the errors of each operation', () => {
    const byPath = new Map(routes.map((route) => [`${route.method} ${route.path}`, route]));
    for (const { path, method, operation } of operations) {
      const statuses = Object.keys(operation.responses as object);
      if (Object.values(documentationRoutes).includes(path as never)) continue;
      const kind = byPath.get(`${method} ${path}`)!.access!.kind;
      const expected =
        kind === 'scope' || kind === 'optional-scope'
          ? ['401', '403', '429', '500', '503']
          : kind === 'owner'
            ? ['401', '429', '500', '503']
            : ['500', '503'];
      expect([path, method, statuses]).toEqual([path, method, expect.arrayContaining(expected)]);
      for (const status of statuses.filter((code) => Number(code) >= 400)) {
        const content = operation.responses[status].content;
        // Pages answer their errors as pages (the consent page); the rest in JSON.
        if (!content['application/json']) {
          expect(Object.keys(content as object)).toEqual(['text/html']);
          continue;
        }
        const schema = content['application/json'].schema;
        expect([
          { $ref: '#/components/schemas/Error' },
          { $ref: '#/components/schemas/OAuthError' },
        ]).toContainEqual(schema.allOf[0]);
      }
    }
    const retrieve = document.paths['/forms/{form_id}'].get as any;
    expect(retrieve.responses['404'].content['application/json'].schema.allOf[1]).toEqual({
      properties: { code: { enum: [ErrorCode.FormNotFound] } },
    });
    expect(retrieve.responses['200'].headers.ETag).toBeDefined();
    expect(
      retrieve.responses['401'].content['application/json'].schema.allOf[1].properties.code.enum,
    ).toEqual(
      expect.arrayContaining([ErrorCode.InvalidToken, ErrorCode.TokenExpired, ErrorCode.TokenRevoked]),
    );
    expect(retrieve.responses['429'].content['application/json'].schema.allOf[1]).toEqual({
      properties: { code: { enum: [ErrorCode.RateLimited] } },
    });
    const token = document.paths['/oauth/token'].post as any;
    expect(Object.keys(token.requestBody.content as object)).toContain('application/x-www-form-urlencoded');
    expect(token.responses['400'].content['application/json'].schema.allOf[0]).toEqual({
      $ref: '#/components/schemas/OAuthError',
    });
    const submit = document.paths['/forms/{form_id}/submissions'].post as any;
    expect(submit.responses['307'].headers.Location).toBeDefined();
    expect(submit.responses['200'].headers['Idempotent-Replayed']).toBeDefined();
    expect(Object.keys(submit.responses as object)).toEqual(expect.arrayContaining(['421', '422']));
    const authorize = document.paths['/oauth/authorize'].get as any;
    expect(Object.keys(authorize.responses['400'].content as object).sort()).toEqual([
      'application/json',
      'text/html',
    ]);
  });

  it('takes query parameters from the QueryPipe and bodies from the validating schemas', () => {
    const list = document.paths['/forms'].get as any;
    expect(list.parameters.map((parameter: any) => parameter.name)).toEqual(
      expect.arrayContaining(['page', 'page_size', 'search', 'workspace_id', 'sort_by', 'order_by']),
    );
    const pageSize = list.parameters.find((parameter: any) => parameter.name === 'page_size');
    expect(pageSize.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 10 });
    const create = document.paths['/forms'].post as any;
    expect(create.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/FormDefinition',
    });
    expect(Object.keys((document.components as { schemas: object }).schemas)).toEqual(
      expect.arrayContaining(['Error', 'Form', 'FormDefinition', 'JsonPatch', 'Workspace', 'AccountProfile']),
    );
  });

  it('includes its own routes, and finds no served route missing', () => {
    const served = [
      ...routes.map((route) => ({ method: route.method, url: route.path.replace(/\{(\w+)\}/g, ':$1') })),
      { method: 'get', url: documentationRoutes.document },
      { method: 'head', url: documentationRoutes.document },
      { method: 'get', url: documentationRoutes.page },
    ];
    expect(undocumentedRoutes(served, document)).toEqual([]);
    expect(undocumentedRoutes([...served, { method: 'post', url: '/oauth/device' }], document)).toEqual([
      'POST /oauth/device',
    ]);
  });
});

describe('the route documentation checks', () => {
  const body = z.object({ name: z.string() });
  const query = z.object({ page: z.coerce.number() });
  const ok = { 200: { description: 'ok', body } };

  @Controller('things')
  class BrokenController {
    @Get()
    @RequiredScope('forms:read')
    undocumented(): void {}

    @Post()
    @RequiredScope('forms:write')
    @ApiOperation({ summary: 'x', responses: ok })
    wrongStatusAndNoBody(@Body() _input: unknown): void {}

    @Get(':thing_id')
    @ApiOperation({ summary: 'x', responses: ok })
    noScope(): void {}

    @Get('search/all')
    @RequiredScope('forms:read')
    @ApiOperation({ summary: 'x', responses: ok, query: z.object({ other: z.string() }) })
    otherQuery(@Query(new QueryPipe(query)) _query: unknown, @Param('x') _x: string): void {}
  }

  it('documents pages and redirects as well as JSON', () => {
    @Controller('pages')
    class PageController {
      @Get()
      @ApiOperation({
        summary: 'A page',
        security: [],
        responses: {
          200: { description: 'The page.', body: null, contentType: 'text/html' },
          303: { description: 'Onwards.', body: null, headers: { Location: 'Where to.' } },
        },
      })
      page(): void {}
    }
    const page = buildOpenApiDocument(describeRoutes([PageController]), settings);
    const responses = (page.paths['/pages'].get as any).responses;
    expect(responses['200'].content).toEqual({ 'text/html': {} });
    expect(responses['303'].headers.Location).toEqual({
      description: 'Where to.',
      schema: { type: 'string' },
    });
    expect((page.paths['/pages'].get as any).security).toEqual([]);
    expect(Object.keys(responses as object)).toEqual(['200', '303', '500', '503']);
    expect(openApiDocumentProblems(page)).toEqual([]);
  });

  it('says what is wrong with each route', () => {
    expect(routeDocumentationProblems(describeRoutes([BrokenController]))).toEqual([
      'BrokenController.undocumented (GET /things): no @ApiOperation',
      'BrokenController.wrongStatusAndNoBody (POST /things): answers 201, which @ApiOperation does not document',
      'BrokenController.wrongStatusAndNoBody (POST /things): takes a body but documents no `body` schema',
      'BrokenController.noScope (GET /things/{thing_id}): neither @RequiredScope nor `security` in @ApiOperation',
      'BrokenController.noScope (GET /things/{thing_id}): path parameter {thing_id} is not read with @Param',
      'BrokenController.otherQuery (GET /things/search/all): documents another query schema than its QueryPipe validates with',
    ]);
  });
});
