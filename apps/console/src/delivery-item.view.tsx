import type { TextKey } from './console.texts';
import { attemptOutcome, type Delivery, deliveryStanding, latency } from './delivery.format';
import { useTexts } from './texts.context';

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
  const texts = useTexts();
  const { t } = texts;
  const titleId = `delivery-${delivery.id}-title`;
  return (
    <li class={`delivery ${delivery.status}`} aria-labelledby={titleId}>
      <h2 id={titleId}>
        {t('item.title', { status: t(statusWord[delivery.status]), event: delivery.event_id })}
      </h2>
      <p class="meta">{t('item.created', { when: texts.dateTime(delivery.created_at) })}</p>
      <p class="standing">{deliveryStanding(delivery, new Date(), texts)}</p>
      {delivery.attempts.length > 0 && (
        <ol class="attempts" aria-label={t('item.attempts', { event: delivery.event_id })}>
          {delivery.attempts.map((attempt) => (
            <li key={attempt.attempted_at}>
              <dl>
                <dt>{t('item.time')}</dt>
                <dd>{texts.dateTime(attempt.attempted_at)}</dd>
                <dt>{t('item.outcome')}</dt>
                <dd>{attemptOutcome(attempt, texts)}</dd>
                <dt>{t('item.latency')}</dt>
                <dd>{latency(attempt.duration_ms, texts)}</dd>
                {attempt.error && (
                  <>
                    <dt>{t('item.answer')}</dt>
                    <dd class="answer">{attempt.error}</dd>
                  </>
                )}
                {attempt.next_retry_at && (
                  <>
                    <dt>{t('item.nextTry')}</dt>
                    <dd>{texts.dateTime(attempt.next_retry_at)}</dd>
                  </>
                )}
              </dl>
            </li>
          ))}
        </ol>
      )}
      <button type="button" disabled={replaying} onClick={() => onReplay(delivery)}>
        {replaying ? t('item.replaying') : t('item.replay')}
        <span class="visually-hidden">{t('item.replayWhat', { event: delivery.event_id })}</span>
      </button>
    </li>
  );
}

const statusWord: Record<Delivery['status'], TextKey> = {
  pending: 'item.pending',
  succeeded: 'item.delivered',
  failed: 'item.failed',
};
