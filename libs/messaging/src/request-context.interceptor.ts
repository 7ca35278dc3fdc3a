import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import type { NatsContext } from '@nestjs/microservices';
import { acceptRequestId, natsHandlerDuration, runWithRequestId } from '@formline/ops';
import { type Observable, tap } from 'rxjs';
import { requestIdFromNatsHeaders } from './request-id.headers';

// Every NATS request a service handles runs under the request id its caller
// sent (libs/ops request-context), so the handler's logs, and the calls it
// makes in turn, carry the id. One line a request, at debug (the gateway's
// access line is the one kept by default: a line per RPC cost the busiest
// service a quarter of its time), says what was handled, how long it took and
// how it ended; the handler time feeds the metrics.
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  private readonly logger = new Logger('NatsRequest');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const nats = context.switchToRpc().getContext<NatsContext>();
    const subject = nats.getSubject();
    // A caller without an id (an older sender) still gets one for this work.
    const requestId = acceptRequestId(requestIdFromNatsHeaders(nats.getHeaders()));
    const started = process.hrtime.bigint();
    const finish = (outcome: 'ok' | 'error') => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      natsHandlerDuration.observe({ subject, outcome }, seconds);
      this.logger.debug({ msg: 'handled', subject, outcome, durationMs: Math.round(seconds * 1e4) / 10 });
    };
    // Nest binds the handler to the async context `handle()` is called in.
    return runWithRequestId(requestId, () =>
      next.handle().pipe(
        tap({
          next: () => undefined,
          complete: () => runWithRequestId(requestId, () => finish('ok')),
          error: () => runWithRequestId(requestId, () => finish('error')),
        }),
      ),
    );
  }
}
