import { type DeliveryDecision, SendFailureKind, type SendOutcome } from '@formline/webhook-delivery';
import type { DispatcherConfig } from '@formline/app-config';

// Declared with the queue's job (it may wait there to be recorded):
// `give-up` with `disableReason` set turns the webhook off too.
export type Decision = DeliveryDecision;

// What happens after an attempt, in one place (retry, timeout and disable
// policy live in configuration, with documented defaults, not in handlers).
// `attemptNumber` counts from 1.
export class RetryPolicy {
  constructor(
    private readonly config: Pick<
      DispatcherConfig,
      'WEBHOOK_RETRY_SCHEDULE_MS' | 'WEBHOOK_RETRY_JITTER' | 'WEBHOOK_RETRY_AFTER_MAX_MS'
    >,
  ) {}

  decide(outcome: SendOutcome, attemptNumber: number, once: boolean): Decision {
    if (outcome.ok) return { kind: 'succeeded' };
    const status = outcome.kind === SendFailureKind.http_status ? outcome.statusCode : null;
    // The receiver says the endpoint is gone: stop at once rather than knock for days.
    if (status === 404 || status === 410) {
      return { kind: 'give-up', disableReason: `the receiver answered ${status} (${outcome.message})` };
    }
    if (once) return { kind: 'give-up', disableReason: null };
    const schedule = this.config.WEBHOOK_RETRY_SCHEDULE_MS;
    if (attemptNumber > schedule.length) {
      return {
        kind: 'give-up',
        disableReason: `${attemptNumber} attempts failed over the whole retry schedule; last: ${outcome.message}`,
      };
    }
    if ((status === 429 || status === 503) && outcome.retryAfterMs !== null) {
      return {
        kind: 'retry',
        delayMs: Math.min(outcome.retryAfterMs, this.config.WEBHOOK_RETRY_AFTER_MAX_MS),
      };
    }
    return { kind: 'retry', delayMs: this.withJitter(schedule[attemptNumber - 1]) };
  }

  private withJitter(delayMs: number): number {
    const spread = (Math.random() * 2 - 1) * this.config.WEBHOOK_RETRY_JITTER;
    return Math.max(0, Math.round(delayMs * (1 + spread)));
  }
}
