import type { PipeTransform } from '@nestjs/common';
import { DomainError, ErrorCode, detailsFromIssues } from '@formline/errors';
import type { z } from 'zod';

// Validates and converts a route's query string; errors name the parameter.
// The OpenAPI document reads `schema` to list the parameters.
export class QueryPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const result = this.schema.safeParse(value ?? {});
    if (result.success) return result.data;
    throw new DomainError(
      ErrorCode.ValidationError,
      'Invalid query parameters.',
      detailsFromIssues(result.error.issues, 'query'),
    );
  }
}
