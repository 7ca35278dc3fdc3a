import { SendFailureKind } from '@formline/db';
import type { AttemptRow } from '@formline/webhook-delivery';
import { presentAttempt } from './attempt-status';

const now = new Date('2026-11-23T12:00:00Z');
const begun: AttemptRow = {
  attemptedAt: new Date('2026-11-23T11:59:59Z'),
  inFlightUntil: new Date('2026-11-23T12:00:30Z'),
  statusCode: null,
  durationMs: 0,
  errorKind: SendFailureKind.interrupted,
  error: 'the dispatcher stopped during this attempt',
  nextRetryAt: null,
};

describe('presentAttempt', () => {
  it("shows its times in whole seconds, as Typeform's timestamps", () => {
    const attempt = {
      ...begun,
      attemptedAt: new Date('2026-11-23T11:59:59.734Z'),
      nextRetryAt: new Date('2026-11-23T12:05:00.250Z'),
    };
    expect(presentAttempt(attempt, now)).toMatchObject({
      attempted_at: '2026-11-23T11:59:59Z',
      next_retry_at: '2026-11-23T12:05:00Z',
    });
  });

  it('shows an attempt under way as sending, without the error it is written with', () => {
    expect(presentAttempt(begun, now)).toMatchObject({ status: 'sending', error_kind: null, error: null });
  });

  it('shows it as interrupted once its deadline passed, or a newer attempt closed it', () => {
    const late = new Date('2026-11-23T12:00:31Z');
    expect(presentAttempt(begun, late)).toMatchObject({
      status: 'interrupted',
      error_kind: 'interrupted',
      error: begun.error,
    });
    expect(presentAttempt({ ...begun, inFlightUntil: null }, now).status).toBe('interrupted');
  });

  it('shows ended attempts as succeeded or failed', () => {
    const ended = { ...begun, inFlightUntil: null, durationMs: 12 };
    expect(presentAttempt({ ...ended, statusCode: 200, errorKind: null, error: null }, now)).toMatchObject({
      status: 'succeeded',
      status_code: 200,
      error_kind: null,
    });
    expect(
      presentAttempt(
        { ...ended, statusCode: 500, errorKind: SendFailureKind.http_status, error: 'HTTP 500' },
        now,
      ),
    ).toMatchObject({ status: 'failed', error_kind: 'http_status' });
  });
});
