import { z } from 'zod';
import type { ErrorBody } from './domain-error';
import { ErrorCode } from './error-code';

// The error body as a schema, for the API document and for tests that hold
// answers to it. Kept in step with the ErrorBody type by the check below.
export const errorDetailSchema = z.object({
  code: z.string().describe('What is wrong with this input, e.g. UNKNOWN_PROPERTY or TOO_BIG.'),
  description: z.string(),
  field: z.string().describe('Path of the input, e.g. `fields[2].title` or `page_size`.'),
  in: z.enum(['body', 'path', 'query', 'header']),
});

export const errorBodySchema = z.object({
  code: z.enum(ErrorCode).describe('Stable, machine-readable error code.'),
  description: z.string().describe('What went wrong, for a person. A 500 names only an error id.'),
  details: z.array(errorDetailSchema).optional().describe('One entry per invalid input.'),
});

// Fails to compile if the schema and the ErrorBody type drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const errorBodySchemaMatchesType: Same<z.output<typeof errorBodySchema>, ErrorBody> = true;

// The body of the OAuth token and revocation endpoints' errors: the error body
// with RFC 6749 5.2's `error` and `error_description`, which OAuth client
// libraries read (present for the OAuth codes, see oauthErrorByCode).
export const oauthErrorBodySchema = errorBodySchema.extend({
  error: z.string().optional().describe('RFC 6749 error, e.g. invalid_grant.'),
  error_description: z.string().optional().describe('The description again, as RFC 6749 names it.'),
});
