import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { unavailableError } from '@formline/errors';
import { finalize, type Observable, throwError } from 'rxjs';
import { InFlightBudget } from './in-flight-budget';

// Sheds load instead of queueing it: past `max` requests in work at once, a
// service answers SERVICE_UNAVAILABLE (503, retry) at once. Without it, a burst
// (clients retrying into a service that just came back) piles up behind the
// database pool; each request then outlasts its caller's timeout, its work is
// wasted, the callers retry, and the service never catches up.
// The budget is the process's (InFlightBudget), shared with the responders
// that serve outside Nest's transport.
@Injectable()
export class InFlightLimitInterceptor implements NestInterceptor {
  private readonly budget: InFlightBudget;

  constructor(limit: number | InFlightBudget) {
    this.budget = typeof limit === 'number' ? new InFlightBudget(limit) : limit;
  }

  /** Requests in work now (a closing service waits for them). */
  inFlight(): number {
    return this.budget.inWork();
  }

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.budget.take()) return throwError(() => unavailableError('This service, at capacity,'));
    return next.handle().pipe(finalize(() => this.budget.release()));
  }
}
