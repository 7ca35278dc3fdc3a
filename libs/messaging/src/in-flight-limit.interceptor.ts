import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { unavailableError } from '@formline/errors';
import { finalize, type Observable, throwError } from 'rxjs';

// Sheds load instead of queueing it: past `max` requests in work at once, a
// service answers SERVICE_UNAVAILABLE (503, retry) at once. Without it, a burst
// (clients retrying into a service that just came back) piles up behind the
// database pool; each request then outlasts its caller's timeout, its work is
// wasted, the callers retry, and the service never catches up.
@Injectable()
export class InFlightLimitInterceptor implements NestInterceptor {
  private active = 0;

  constructor(private readonly max: number) {}

  /** Requests in work now (a closing service waits for them). */
  inFlight(): number {
    return this.active;
  }

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.active >= this.max) return throwError(() => unavailableError('This service, at capacity,'));
    this.active++;
    return next.handle().pipe(finalize(() => this.active--));
  }
}
