import { z } from 'zod';

// Turns the zod schemas of the API into JSON Schema 2020-12, the dialect of
// OpenAPI 3.1. Schemas named in `named` become components and are referenced;
// every other schema is written out where it is used. Request schemas are
// converted as input (defaults optional), answers as output.

export type Io = 'input' | 'output';
export type JsonSchema = Record<string, unknown>;

const componentPrefix = '#/components/schemas/';

export class JsonSchemaSet {
  private readonly uses: { schema: z.ZodType; io: Io; target: JsonSchema }[] = [];

  constructor(private readonly named: ReadonlyMap<z.ZodType, string>) {}

  // A placeholder filled in by resolve(): `{$ref}` for a named schema, the
  // schema itself otherwise.
  use(schema: z.ZodType, io: Io): JsonSchema {
    const target: JsonSchema = {};
    this.uses.push({ schema, io, target });
    return target;
  }

  // Fills every placeholder and returns the components they reference.
  resolve(): Record<string, JsonSchema> {
    const components: Record<string, JsonSchema> = {};
    for (const io of ['output', 'input'] as const) {
      const uses = this.uses.filter((use) => use.io === io);
      if (uses.length === 0) continue;
      const { schemas, idOf } = this.convert(io, [...new Set(uses.map((use) => use.schema))]);
      for (const { schema, target } of uses) {
        const id = idOf.get(schema) ?? '';
        Object.assign(
          target,
          this.named.has(schema) ? { $ref: `${componentPrefix}${id}` } : structuredClone(schemas[id]),
        );
      }
      // Components this side reaches; a name whose input differs from its
      // output is <name>Input on the input side.
      const reached = reachable(
        schemas,
        uses.map((use) => use.target),
      );
      const renames = new Map<string, string>();
      for (const id of reached) {
        if (io === 'input' && components[id] && !sameJson(components[id], schemas[id]))
          renames.set(id, `${id}Input`);
      }
      for (const id of reached) {
        rename(schemas[id], renames);
        components[renames.get(id) ?? id] ??= schemas[id];
      }
      for (const { target } of uses) rename(target, renames);
    }
    return Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)));
  }

  private convert(io: Io, used: z.ZodType[]) {
    const registry = z.registry<{ id: string }>();
    const idOf = new Map<z.ZodType, string>(this.named);
    used.forEach((schema, index) => idOf.has(schema) || idOf.set(schema, `__inline${index}`));
    for (const [schema, id] of idOf) registry.add(schema, { id });
    const schemas = z.toJSONSchema(registry, {
      io,
      uri: (id) => `${componentPrefix}${id}`,
      unrepresentable: 'any',
      reused: 'inline',
      cycles: 'ref',
    }).schemas as Record<string, JsonSchema>;
    // Shared definitions (recursive schemas) become components of their own.
    const shared = (schemas.__shared?.$defs ?? {}) as Record<string, JsonSchema>;
    delete schemas.__shared;
    for (const [key, schema] of Object.entries(shared)) schemas[`Shared_${io}_${key}`] = schema;
    for (const schema of Object.values(schemas)) clean(schema, io);
    return { schemas, idOf };
  }
}

// One schema written out in full, without components.
export function standaloneJsonSchema(schema: z.ZodType, io: Io): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  clean(json, io);
  return json;
}

// Cleans what zod writes for a document embedded in OpenAPI: no `$schema` or
// `$id` per schema, shared definitions under components, and no ±2^53 bounds
// on every integer.
function clean(node: unknown, io: Io): void {
  walk(node, (object) => {
    delete object.$schema;
    delete object.$id;
    if (object.minimum === Number.MIN_SAFE_INTEGER) delete object.minimum;
    if (object.maximum === Number.MAX_SAFE_INTEGER) delete object.maximum;
    const shared =
      typeof object.$ref === 'string' &&
      /^#\/components\/schemas\/__shared#\/\$defs\/(.+)$/.exec(object.$ref);
    if (shared) object.$ref = `${componentPrefix}Shared_${io}_${shared[1]}`;
  });
}

function rename(node: unknown, renames: ReadonlyMap<string, string>): void {
  if (renames.size === 0) return;
  walk(node, (object) => {
    if (typeof object.$ref !== 'string' || !object.$ref.startsWith(componentPrefix)) return;
    const renamed = renames.get(object.$ref.slice(componentPrefix.length));
    if (renamed) object.$ref = `${componentPrefix}${renamed}`;
  });
}

function walk(node: unknown, visit: (object: JsonSchema) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  visit(node as JsonSchema);
  for (const value of Object.values(node)) walk(value, visit);
}

// The component ids a set of schemas refers to, directly or through others.
function reachable(schemas: Record<string, JsonSchema>, roots: JsonSchema[]): Set<string> {
  const reached = new Set<string>();
  const visit = (node: unknown): void =>
    walk(node, (object) => {
      if (typeof object.$ref !== 'string' || !object.$ref.startsWith(componentPrefix)) return;
      const id = object.$ref.slice(componentPrefix.length);
      if (reached.has(id) || !schemas[id]) return;
      reached.add(id);
      visit(schemas[id]);
    });
  roots.forEach(visit);
  return reached;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
