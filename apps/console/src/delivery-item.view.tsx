import { attemptOutcome, type Delivery, deliveryStanding, latency } from './delivery.format';

interface Props {
  delivery: Delivery;
  /** A replay of this delivery is under way. */
  replaying: boolean;
  onReplay: (delivery: Delivery) => void;
}

// One delivery of the log: the event it carried, where it stands (why it
// stopped), and every attempt, newest first, with its time, outcome, latency
// and what the receiver answered. A list of term-and-value pairs rather than
// a table, so a phone shows it without scrolling sideways.
export function DeliveryItemView({ delivery, replaying, onReplay }: Props) {
  const titleId = `delivery-${delivery.id}-title`;
  return (
    <li class={`delivery ${delivery.status}`} aria-labelledby={titleId}>
      <h2 id={titleId}>
        {statusWord[delivery.status]}: event {delivery.event_id}
      </h2>
      <p class="meta">Created {new Date(delivery.created_at).toLocaleString()}</p>
      <p class="standing">{deliveryStanding(delivery)}</p>
      {delivery.attempts.length > 0 && (
        <ol class="attempts" aria-label={`Attempts of event ${delivery.event_id}, newest first`}>
          {delivery.attempts.map((attempt) => (
            <li key={attempt.attempted_at}>
              <dl>
                <dt>Time</dt>
                <dd>{new Date(attempt.attempted_at).toLocaleString()}</dd>
                <dt>Outcome</dt>
                <dd>{attemptOutcome(attempt)}</dd>
                <dt>Latency</dt>
                <dd>{latency(attempt.duration_ms)}</dd>
                {attempt.error && (
                  <>
                    <dt>Answer</dt>
                    <dd class="answer">{attempt.error}</dd>
                  </>
                )}
                {attempt.next_retry_at && (
                  <>
                    <dt>Next try</dt>
                    <dd>{new Date(attempt.next_retry_at).toLocaleString()}</dd>
                  </>
                )}
              </dl>
            </li>
          ))}
        </ol>
      )}
      <button type="button" disabled={replaying} onClick={() => onReplay(delivery)}>
        {replaying ? 'Replaying…' : 'Replay'}
        <span class="visually-hidden"> the delivery of event {delivery.event_id}</span>
      </button>
    </li>
  );
}

const statusWord: Record<Delivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  failed: 'Failed',
};
