import { randomUUID } from 'node:crypto';
import { Catch, Logger, type RpcExceptionFilter } from '@nestjs/common';
import { DomainError, ErrorCode, type ErrorBody } from '@formline/errors';
import { type Observable, throwError } from 'rxjs';

// Every failure of a NATS handler leaves the service as an error body. A domain
// error goes as it is; anything else is logged with an id and only the id
// travels, so internals never reach a client.
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown): Observable<ErrorBody> {
    if (exception instanceof DomainError) return throwError(() => exception.toBody());
    const errorId = randomUUID();
    this.logger.error({ errorId, error: describe(exception) });
    return throwError(() => ({
      code: ErrorCode.InternalError,
      description: `Internal error, id ${errorId}.`,
    }));
  }
}

function describe(exception: unknown): string {
  return exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
}
