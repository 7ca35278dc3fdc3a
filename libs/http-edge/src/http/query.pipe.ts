import type { PipeTransform } from '@nestjs/common';
import { DomainError, ErrorCode, type ErrorDetail, detailsFromIssues } from '@formline/errors';
import { z } from 'zod';

// Validates and converts a route's query string; errors name the parameter.
// A parameter the route does not take is refused, not ignored (a misspelt
// filter would otherwise answer unfiltered data). The OpenAPI document reads
// `schema` to list the parameters.
export class QueryPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  private readonly names: ReadonlySet<string> | undefined;

  constructor(readonly schema: S) {
    const names = parameterNames(schema);
    this.names = names && new Set(names);
  }

  transform(value: unknown): z.output<S> {
    const query = value ?? {};
    const unknown = this.unknownParameters(query);
    if (unknown.length > 0) {
      throw new DomainError(ErrorCode.ValidationError, 'Invalid query parameters.', unknown);
    }
    const result = this.schema.safeParse(query);
    if (result.success) return result.data;
    throw new DomainError(
      ErrorCode.ValidationError,
      'Invalid query parameters.',
      detailsFromIssues(result.error.issues, 'query'),
    );
  }

  private unknownParameters(query: unknown): ErrorDetail[] {
    if (!this.names || typeof query !== 'object' || query === null) return [];
    return Object.keys(query)
      .filter((name) => !this.names!.has(name))
      .map((name) => ({
        code: 'UNKNOWN_PARAMETER',
        description: `${name.slice(0, 64)} is not a query parameter of this route`,
        field: name.slice(0, 64),
        in: 'query' as const,
      }));
  }
}

// The parameters an object schema (possibly refined or transformed) takes.
function parameterNames(schema: z.ZodType): string[] | undefined {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return parameterNames(schema.in as z.ZodType);
  return undefined;
}
