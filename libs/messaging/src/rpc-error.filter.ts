import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, Logger, type RpcExceptionFilter } from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import {
  concurrentChangeError,
  DomainError,
  ErrorCode,
  type ErrorBody,
  isConcurrentChange,
  isDependencyUnavailable,
  unavailableError,
} from '@formline/errors';
import { type Observable, throwError } from 'rxjs';
import { requestIdFromNatsHeaders } from './request-id.headers';

// Every failure of a NATS handler leaves the service as an error body
// (rpcErrorBody): Nest's handlers through this filter, byte replies through
// their responder.
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<ErrorBody> {
    // The filter may run outside the request's async context: read the id from the message.
    const requestId = requestIdFromNatsHeaders(host.switchToRpc().getContext<NatsContext>().getHeaders());
    return throwError(() => rpcErrorBody(exception, requestId, this.logger));
  }
}

// A domain error goes as it is; a server we depend on being away (database,
// NATS, Redis) goes as SERVICE_UNAVAILABLE, which clients retry; a write
// that met another request's (a key taken, a row deleted meanwhile, a
// deadlock) goes as CONFLICT; anything else is logged with an id and only the
// id travels, so internals never reach a client.
export function rpcErrorBody(
  exception: unknown,
  requestId: string | undefined,
  logger: Pick<Logger, 'warn' | 'error'>,
): ErrorBody {
  if (exception instanceof DomainError) return exception.toBody();
  const errorId = randomUUID();
  if (isDependencyUnavailable(exception)) {
    // One short line, no stack: during an outage every request lands here.
    logger.warn({
      errorId,
      requestId,
      unavailable: exception instanceof Error ? exception.message : String(exception),
    });
    return unavailableError('A server this service depends on').toBody();
  }
  if (isConcurrentChange(exception)) {
    // Another request's write met this one's: sent again, it sees the result.
    // Logged as an error all the same: a path where such a race can happen
    // should handle it, and a constraint that fails every time is a bug.
    logger.error({ errorId, requestId, concurrentChange: true, error: describe(exception) });
    return concurrentChangeError().toBody();
  }
  logger.error({ errorId, requestId, error: describe(exception) });
  return { code: ErrorCode.InternalError, description: `Internal error, id ${errorId}.` };
}

function describe(exception: unknown): string {
  return exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
}
