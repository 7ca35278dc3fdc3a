import { SendFailureKind, type SendOutcome } from '@formline/webhook-delivery';
import { RetryPolicy } from './retry.policy';

// An answer with this status, or (null) a connection that never carried one.
const outcome = (statusCode: number | null, retryAfterMs: number | null = null): SendOutcome =>
  statusCode !== null && statusCode >= 200 && statusCode < 300
    ? { ok: true, statusCode, durationMs: 5 }
    : {
        ok: false,
        kind: statusCode === null ? SendFailureKind.connection_refused : SendFailureKind.http_status,
        statusCode,
        message: statusCode === null ? 'connect ECONNREFUSED' : `HTTP ${statusCode}`,
        durationMs: 5,
        retryAfterMs,
      };

describe('RetryPolicy', () => {
  const policy = new RetryPolicy({
    WEBHOOK_RETRY_SCHEDULE_MS: [1000, 5000],
    WEBHOOK_RETRY_JITTER: 0,
    WEBHOOK_RETRY_AFTER_MAX_MS: 60_000,
  });

  it('ends on any 2xx', () => {
    expect(policy.decide(outcome(204), 1, false)).toEqual({ kind: 'succeeded' });
  });

  it('follows the schedule, then gives up and disables', () => {
    expect(policy.decide(outcome(500), 1, false)).toEqual({ kind: 'retry', delayMs: 1000 });
    expect(policy.decide(outcome(null), 2, false)).toEqual({ kind: 'retry', delayMs: 5000 });
    expect(policy.decide(outcome(500), 3, false)).toMatchObject({
      kind: 'give-up',
      disableReason: expect.stringMatching(/3 attempts failed/),
    });
  });

  it('disables at once on 404 and 410', () => {
    expect(policy.decide(outcome(410), 1, false)).toMatchObject({ kind: 'give-up', disableReason: /410/ });
    expect(policy.decide(outcome(404), 1, true)).toMatchObject({ kind: 'give-up', disableReason: /404/ });
  });

  it('honours Retry-After on 429 and 503, capped', () => {
    expect(policy.decide(outcome(429, 3000), 1, false)).toEqual({ kind: 'retry', delayMs: 3000 });
    expect(policy.decide(outcome(503, 999_999), 1, false)).toEqual({ kind: 'retry', delayMs: 60_000 });
    expect(policy.decide(outcome(503), 1, false)).toEqual({ kind: 'retry', delayMs: 1000 });
  });

  it('tries a redelivery once, without disabling', () => {
    expect(policy.decide(outcome(500), 4, true)).toEqual({ kind: 'give-up', disableReason: null });
  });

  it('spreads waits by the jitter', () => {
    const jittery = new RetryPolicy({
      WEBHOOK_RETRY_SCHEDULE_MS: [1000],
      WEBHOOK_RETRY_JITTER: 0.2,
      WEBHOOK_RETRY_AFTER_MAX_MS: 1,
    });
    for (let i = 0; i < 50; i++) {
      const decision = jittery.decide(outcome(500), 1, false);
      expect(decision.kind === 'retry' && decision.delayMs >= 800 && decision.delayMs <= 1200).toBe(true);
    }
  });
});
