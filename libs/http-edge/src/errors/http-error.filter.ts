import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  type ErrorBody,
  httpStatusByCode,
  isDependencyUnavailable,
  oauthErrorByCode,
  unavailableError,
} from '@formline/errors';
import { basicChallenge, bearerChallenge } from '../auth/auth-challenge';
import { DomainErrorWithHeaders } from './domain-error-with-headers';

interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  send(body: unknown): void;
}

// The one place where errors become HTTP answers: the documented body
// `{code, description, details?}` and the status of its code. A failure we did
// not foresee answers 500 with only an error id; the log has the rest.
// OAuth errors also carry RFC 6749's `error` and `error_description`, which
// OAuth client libraries read.
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<Reply>();
    // Named on the log lines below: the gateway has no request context to add it.
    const requestId = host.switchToHttp().getRequest<{ requestId?: string } | undefined>()?.requestId;
    const body = this.toBody(exception, requestId);
    const status = httpStatusByCode[body.code];
    for (const [name, value] of Object.entries(headersFor(exception, body.code, status))) {
      reply.header(name, value);
    }
    const oauthError = oauthErrorByCode[body.code];
    reply
      .status(status)
      .send(oauthError ? { ...body, error: oauthError, error_description: body.description } : body);
  }

  private toBody(exception: unknown, requestId: string | undefined): ErrorBody {
    if (exception instanceof DomainError) return exception.toBody();
    if (exception instanceof HttpException)
      return fromFrameworkError(exception.getStatus(), exception.message);
    // Fastify's own errors (body parsing, size limits) carry their status.
    const status = (exception as { statusCode?: unknown } | null)?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return fromFrameworkError(status, (exception as Error).message);
    }
    const errorId = randomUUID();
    if (isDependencyUnavailable(exception)) {
      // One short line, no stack: during an outage every request lands here,
      // and a stack per request would make the log the next bottleneck.
      this.logger.warn({
        errorId,
        requestId,
        unavailable: exception instanceof Error ? exception.message : String(exception),
      });
      return unavailableError('A server the gateway depends on').toBody();
    }
    const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
    this.logger.error({ errorId, requestId, error: detail });
    return { code: ErrorCode.InternalError, description: `Internal error, id ${errorId}.` };
  }
}

// Explicit headers first; a 401 always says how to authenticate, a 503 when to retry.
function headersFor(exception: unknown, code: ErrorCode, status: number): Record<string, string> {
  if (exception instanceof DomainErrorWithHeaders) return exception.headers;
  if (code === ErrorCode.InvalidClient) return { 'WWW-Authenticate': basicChallenge() };
  if (status === 401) return { 'WWW-Authenticate': bearerChallenge() };
  if (code === ErrorCode.ServiceUnavailable) return { 'Retry-After': '1' };
  return {};
}

// Errors raised by the framework itself: unknown routes, unparsable or oversized bodies.
function fromFrameworkError(status: number, message: string): ErrorBody {
  if (status === 404) return { code: ErrorCode.NotFound, description: 'No such endpoint.' };
  if (status === 413)
    return { code: ErrorCode.PayloadTooLarge, description: 'The request body is too large.' };
  if (status >= 400 && status < 500) return { code: ErrorCode.ValidationError, description: message };
  return { code: ErrorCode.InternalError, description: 'Internal error.' };
}
