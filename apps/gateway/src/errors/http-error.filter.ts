import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { DomainError, ErrorCode, type ErrorBody, httpStatusByCode } from '@formline/errors';

interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  send(body: unknown): void;
}

// The one place where errors become HTTP answers: the documented body
// `{code, description, details?}` and the status of its code. A failure we did
// not foresee answers 500 with only an error id; the log has the rest.
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<Reply>();
    const body = this.toBody(exception);
    const status = httpStatusByCode[body.code];
    if (body.code === ErrorCode.AuthenticationFailed) {
      reply.header('WWW-Authenticate', 'Bearer realm="api", error="invalid_token"');
    }
    if (body.code === ErrorCode.ServiceUnavailable) reply.header('Retry-After', '1');
    reply.status(status).send(body);
  }

  private toBody(exception: unknown): ErrorBody {
    if (exception instanceof DomainError) return exception.toBody();
    if (exception instanceof HttpException)
      return fromFrameworkError(exception.getStatus(), exception.message);
    // Fastify's own errors (body parsing, size limits) carry their status.
    const status = (exception as { statusCode?: unknown } | null)?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return fromFrameworkError(status, (exception as Error).message);
    }
    const errorId = randomUUID();
    const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
    this.logger.error({ errorId, error: detail });
    return { code: ErrorCode.InternalError, description: `Internal error, id ${errorId}.` };
  }
}

// Errors raised by the framework itself: unknown routes, unparsable or oversized bodies.
function fromFrameworkError(status: number, message: string): ErrorBody {
  if (status === 404) return { code: ErrorCode.NotFound, description: 'No such endpoint.' };
  if (status === 413)
    return { code: ErrorCode.PayloadTooLarge, description: 'The request body is too large.' };
  if (status >= 400 && status < 500) return { code: ErrorCode.ValidationError, description: message };
  return { code: ErrorCode.InternalError, description: 'Internal error.' };
}
