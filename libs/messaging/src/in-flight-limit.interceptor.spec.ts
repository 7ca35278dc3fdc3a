import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import { lastValueFrom, Subject } from 'rxjs';
import { processInFlightBudget } from './in-flight-budget';
import { InFlightLimitInterceptor } from './in-flight-limit.interceptor';

describe('InFlightLimitInterceptor', () => {
  const context = {} as ExecutionContext;

  it('answers SERVICE_UNAVAILABLE past the limit, and takes work again once some finished', async () => {
    const limit = new InFlightLimitInterceptor(2);
    const pending = [new Subject<string>(), new Subject<string>()];
    const results = pending.map((subject) =>
      lastValueFrom(limit.intercept(context, { handle: () => subject } as CallHandler)),
    );
    const shed = lastValueFrom(limit.intercept(context, { handle: () => new Subject() } as CallHandler));
    await expect(shed).rejects.toMatchObject({ code: ErrorCode.ServiceUnavailable });
    await expect(shed).rejects.toBeInstanceOf(DomainError);

    pending[0].next('done');
    pending[0].complete();
    await expect(results[0]).resolves.toBe('done');
    const next = new Subject<string>();
    const accepted = lastValueFrom(limit.intercept(context, { handle: () => next } as CallHandler));
    next.error(new Error('handler failed')); // a failure frees its place too
    await expect(accepted).rejects.toThrow('handler failed');
    pending[1].next('also');
    pending[1].complete();
    await expect(results[1]).resolves.toBe('also');
  });
});

describe('the process’s in-flight budget', () => {
  const context = {} as ExecutionContext;

  it('is one for the whole process, and bounds Nest’s handlers together with whatever else takes from it', async () => {
    const budget = processInFlightBudget(1);
    expect(processInFlightBudget(5)).toBe(budget);
    const limit = new InFlightLimitInterceptor(budget);
    // A call of a batch (or a byte reply) is in work: Nest's handler is shed.
    expect(budget.take()).toBe(true);
    const shed = lastValueFrom(limit.intercept(context, { handle: () => new Subject() } as CallHandler));
    await expect(shed).rejects.toMatchObject({ code: ErrorCode.ServiceUnavailable });
    budget.release();
    const done = new Subject<string>();
    const accepted = lastValueFrom(limit.intercept(context, { handle: () => done } as CallHandler));
    expect(budget.take()).toBe(false);
    done.next('ok');
    done.complete();
    await expect(accepted).resolves.toBe('ok');
    expect(budget.inWork()).toBe(0);
  });
});
