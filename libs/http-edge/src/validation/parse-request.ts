import { DomainError, type ErrorDetail, ErrorCode, detailsFromIssues } from '@formline/errors';
import type { z } from 'zod';

// Validates a part of an HTTP request against its schema: the parsed value,
// or VALIDATION_ERROR with one detail per problem, named as the client wrote it.
export function parseRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  location: ErrorDetail['in'],
): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new DomainError(
    ErrorCode.ValidationError,
    `The request ${location} is not valid.`,
    detailsFromIssues(result.error.issues, location),
  );
}
