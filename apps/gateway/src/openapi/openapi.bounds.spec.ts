import type { Type } from '@nestjs/common';
import { parseConfig } from '@formline/config';
import { gatewayConfigSchema } from '@formline/app-config';
import { buildOpenApiDocument, describeRoutes } from '@formline/http-edge';
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
const controllers = GatewayModule.forConfig(config).controllers as Type[];
const document = buildOpenApiDocument(describeRoutes(controllers), {
  version: '0.1.0',
  servers: [{ url: 'https://api.example.com', description: 'us' }],
}) as any;

// Every string and every array a caller may send is bounded, and the bound is
// in the API document: lists what is not, as `operation: where`.
function unboundedInputs(): string[] {
  const found = new Set<string>();
  const visit = (schema: any, where: string, seen: Set<string>): void => {
    if (typeof schema !== 'object' || schema === null) return;
    if (typeof schema.$ref === 'string') {
      if (seen.has(schema.$ref)) return;
      const name = schema.$ref.split('/').pop();
      visit(document.components.schemas[name], `${where}<${name}>`, new Set([...seen, schema.$ref]));
      return;
    }
    const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const closed = schema.enum !== undefined || schema.const !== undefined;
    if (types.includes('string') && !closed && schema.maxLength === undefined) found.add(`${where}: string`);
    if (types.includes('array') && schema.maxItems === undefined) found.add(`${where}: array`);
    if (types.includes('object') && schema.additionalProperties && schema.maxProperties === undefined)
      found.add(`${where}: map`);
    for (const [key, child] of Object.entries(schema.properties ?? {})) visit(child, `${where}.${key}`, seen);
    for (const key of ['items', 'additionalProperties', 'propertyNames', 'not'])
      if (typeof schema[key] === 'object') visit(schema[key], `${where}.${key}`, seen);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
      for (const [index, child] of (schema[key] ?? []).entries()) visit(child, `${where}|${index}`, seen);
  };
  for (const [path, byMethod] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(byMethod)) {
      const name = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.$ref) continue; // shared parameters (X-Request-Id) are checked below
        visit(parameter.schema, `${name} ${parameter.in}.${parameter.name}`, new Set());
      }
      for (const [type, content] of Object.entries<any>(operation.requestBody?.content ?? {}))
        visit(content.schema, `${name} body(${type})`, new Set());
    }
  }
  for (const [name, parameter] of Object.entries<any>(document.components.parameters ?? {}))
    visit(parameter.schema, `parameter ${name}`, new Set());
  return [...found].sort();
}

describe('the bounds of what the API accepts', () => {
  it('documents a maximum for every string, array and map in every request', () => {
    expect(unboundedInputs()).toEqual([]);
  });
});
