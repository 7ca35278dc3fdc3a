import type { DeliveryResource } from '@formline/contracts';
import { type ConsoleTexts, englishTexts, type TextKey } from './console.texts';

// The delivery log in words: what an attempt came to, how long it took, and
// why a delivery stopped (or when it tries again). Pure, so a spec reads
// every case; the views only lay the words out.
export type Delivery = DeliveryResource;
export type Attempt = DeliveryResource['attempts'][number];

// The API's failure kinds (sendFailureKinds), as an owner would say them.
const failureWords: Record<string, TextKey> = {
  timeout: 'failure.timeout',
  connection_refused: 'failure.connectionRefused',
  connection_reset: 'failure.connectionReset',
  dns: 'failure.dns',
  tls: 'failure.tls',
  http_status: 'failure.httpStatus',
  address_refused: 'failure.addressRefused',
  network: 'failure.network',
  interrupted: 'failure.interrupted',
};

/** An attempt's outcome, short: "200", "500", "no answer in time", "Sending…". */
export function attemptOutcome(attempt: Attempt, texts: ConsoleTexts = englishTexts): string {
  const { t } = texts;
  if (attempt.status === 'sending') return t('attempt.sending');
  const answer = answerOf(attempt);
  if (attempt.status === 'succeeded')
    return t('attempt.succeeded', { answer: answer ?? t('attempt.noStatus') });
  if (attempt.status === 'interrupted')
    return answer ? t('attempt.interruptedWith', { answer }) : t('attempt.interrupted');
  return t('attempt.failed', { why: failureOf(attempt, texts) });
}

const answerOf = (attempt: Attempt) =>
  attempt.status_code === null ? undefined : `HTTP ${attempt.status_code}`;

// Why a failed attempt failed: the receiver's status, the kind of failure, or both.
function failureOf(attempt: Attempt, { t }: ConsoleTexts): string {
  const known = attempt.error_kind ? failureWords[attempt.error_kind] : undefined;
  const kind = known ? t(known) : (attempt.error_kind ?? undefined);
  return [answerOf(attempt), kind].filter(Boolean).join(': ') || t('attempt.noAnswer');
}

/** How long an attempt took: "85 ms", "1.2 s". */
export function latency(ms: number, texts: ConsoleTexts = englishTexts): string {
  if (ms < 1000) return texts.t('latency.ms', { ms });
  const digits = ms < 10_000 ? 1 : 0;
  const s = texts.number(ms / 1000, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  });
  return texts.t('latency.s', { s });
}

/** Where a delivery stands and why it stopped, in one sentence. */
export function deliveryStanding(
  delivery: Delivery,
  now: Date = new Date(),
  texts: ConsoleTexts = englishTexts,
): string {
  const { t } = texts;
  const count = t('delivery.attempts', { count: delivery.attempt_count });
  const last = delivery.attempts[0];
  if (delivery.status === 'succeeded') return t('delivery.deliveredAfter', { count });
  if (delivery.status === 'pending') {
    if (!delivery.next_attempt_at) return t('delivery.waiting', { count });
    const due = new Date(delivery.next_attempt_at);
    return due <= now
      ? t('delivery.sendingAgain', { count })
      : t('delivery.tryingAt', { when: texts.dateTime(due), count });
  }
  const why = last?.error ?? (last ? attemptOutcome(last, texts) : t('delivery.noAttempt'));
  return t('delivery.stopped', { count, why });
}

/** The newest delivery of a webhook, for its line in the list. */
export function lastDeliverySummary(
  delivery: Delivery | undefined,
  texts: ConsoleTexts = englishTexts,
): string {
  const { t } = texts;
  if (!delivery) return t('lastDelivery.none');
  const when = texts.dateTime(delivery.created_at);
  const last = delivery.attempts[0];
  if (delivery.status === 'succeeded') return t('lastDelivery.delivered', { when });
  if (delivery.status === 'pending')
    return t('lastDelivery.pending', { count: delivery.attempt_count, when });
  if (!last) return t('lastDelivery.failed', { when });
  // The attempt's own words, less the "Failed" the summary already says.
  const why = last.status === 'failed' ? failureOf(last, texts) : attemptOutcome(last, texts);
  return t('lastDelivery.failedWhy', { why, when });
}
