import { type DeliveryResource, wholeSecondsIso } from '@formline/contracts';
import { SendFailureKind } from '@formline/db';
import type { AttemptRow } from '@formline/webhook-delivery';

type AttemptResource = DeliveryResource['attempts'][number];

// How the delivery log shows one attempt (docs/decisions/webhooks-and-delivery.md,
// "Attempts in flight and interrupted"). The row says `interrupted` from the moment the
// attempt starts, so that a dispatcher's death leaves the truth behind; while
// the attempt may still be under way (before its in-flight deadline, and no
// newer attempt has begun) it is shown as `sending`, without an error.
export function presentAttempt(attempt: AttemptRow, now: Date): AttemptResource {
  const sending = attempt.inFlightUntil !== null && attempt.inFlightUntil > now;
  return {
    attempted_at: wholeSecondsIso(attempt.attemptedAt),
    status: sending ? 'sending' : statusOf(attempt.errorKind),
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    error_kind: sending ? null : attempt.errorKind,
    error: sending ? null : attempt.error,
    next_retry_at: attempt.nextRetryAt ? wholeSecondsIso(attempt.nextRetryAt) : null,
  };
}

function statusOf(kind: SendFailureKind | null): AttemptResource['status'] {
  if (kind === null) return 'succeeded';
  return kind === SendFailureKind.interrupted ? 'interrupted' : 'failed';
}
