import { SetMetadata } from '@nestjs/common';
import type { ErrorCode } from '@formline/errors';
import type { z } from 'zod';

export const API_OPERATION = 'formline:apiOperation';

// A success answer: the schema of its JSON body (null when it has none, as a
// 204 or a redirect), and the headers it carries besides X-Request-Id.
export interface ApiSuccess {
  description: string;
  body: z.ZodType | null;
  /** A body that is not JSON (an HTML page): its media type, or those it may take; `body` stays null. */
  contentType?: string | string[];
  headers?: Record<string, string>;
}

// A security requirement as OpenAPI writes it: scheme name → scopes.
export type ApiSecurityRequirement = Record<string, string[]>;

export interface ApiOperationOptions {
  summary: string;
  description?: string;
  /**
   * The schema the request body is validated with (by the gateway or by the
   * service it forwards to): the very object, not a copy, so the document
   * cannot drift from the check.
   */
  body?: z.ZodType;
  /** The body may be left out (a DELETE that also reads its query). */
  bodyOptional?: boolean;
  /** Media types of the body; JSON by default. */
  bodyContentTypes?: string[];
  /**
   * The query's schema, when the handler validates it itself; a @Query()
   * through QueryPipe is read from the pipe.
   */
  query?: z.ZodObject;
  /** Success answers by status; the route's own status must be among them. */
  responses: Record<number, ApiSuccess>;
  /** Errors this operation answers with besides those every operation may give. */
  errors?: ErrorCode[];
  /**
   * For a route without @RequiredScope: who may call it, as OpenAPI security
   * requirements (`[]` for anyone). Routes with a scope get it from the scope.
   */
  security?: ApiSecurityRequirement[];
}

// Describes a route for the OpenAPI document (GET /openapi.json), beside
// @RequiredScope: the generator reads both, the route's path, method, status
// and parameters from NestJS's own metadata, and refuses a route without it.
export const ApiOperation = (options: ApiOperationOptions) => SetMetadata(API_OPERATION, options);
