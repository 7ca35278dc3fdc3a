import type { DeliveryResource } from '@formline/contracts';

// The delivery log in words: what an attempt came to, how long it took, and
// why a delivery stopped (or when it tries again). Pure, so a spec reads
// every case; the views only lay the words out.
export type Delivery = DeliveryResource;
export type Attempt = DeliveryResource['attempts'][number];

// The API's failure kinds (sendFailureKinds), as an owner would say them.
const failureWords: Record<string, string> = {
  timeout: 'no answer in time',
  connection_refused: 'connection refused',
  connection_reset: 'connection reset',
  dns: 'the host name did not resolve',
  tls: 'the TLS handshake failed',
  http_status: 'the receiver answered with an error',
  address_refused: 'the address is not allowed',
  network: 'network error',
  interrupted: 'interrupted (the receiver may have it)',
};

/** An attempt's outcome, short: "200", "500", "no answer in time", "Sending…". */
export function attemptOutcome(attempt: Attempt): string {
  if (attempt.status === 'sending') return 'Sending…';
  const answer = attempt.status_code === null ? undefined : `HTTP ${attempt.status_code}`;
  if (attempt.status === 'succeeded') return `Succeeded, ${answer ?? 'no status'}`;
  const kind = attempt.error_kind ? (failureWords[attempt.error_kind] ?? attempt.error_kind) : undefined;
  if (attempt.status === 'interrupted') return `Interrupted${answer ? `, ${answer}` : ''}`;
  return `Failed, ${[answer, kind].filter(Boolean).join(': ') || 'no answer'}`;
}

/** How long an attempt took: "85 ms", "1.2 s". */
export function latency(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** Where a delivery stands and why it stopped, in one sentence. */
export function deliveryStanding(delivery: Delivery, now: Date = new Date()): string {
  const count = `${delivery.attempt_count} ${delivery.attempt_count === 1 ? 'attempt' : 'attempts'}`;
  const last = delivery.attempts[0];
  if (delivery.status === 'succeeded') return `Delivered after ${count}.`;
  if (delivery.status === 'pending') {
    if (!delivery.next_attempt_at) return `Waiting to be sent (${count} so far).`;
    const due = new Date(delivery.next_attempt_at);
    return due <= now
      ? `Being sent again now (${count} so far).`
      : `Trying again at ${due.toLocaleString()} (${count} so far).`;
  }
  const why = last?.error ?? (last ? attemptOutcome(last) : 'no attempt was recorded');
  return `Stopped after ${count}: ${why}`;
}

/** The newest delivery of a webhook, for its line in the list. */
export function lastDeliverySummary(delivery: Delivery | undefined): string {
  if (!delivery) return 'No delivery yet';
  const when = new Date(delivery.created_at).toLocaleString();
  const last = delivery.attempts[0];
  if (delivery.status === 'succeeded') return `Delivered (${when})`;
  if (delivery.status === 'pending') return `Pending, ${delivery.attempt_count} tried (${when})`;
  return `Failed${last ? `: ${attemptOutcome(last).replace(/^Failed, /, '')}` : ''} (${when})`;
}
