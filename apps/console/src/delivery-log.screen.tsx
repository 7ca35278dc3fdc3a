import type { WebhookResource } from '@formline/contracts';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, ApiError } from './api.client';
import { type ConsoleRoute, hashOf } from './console.route';
import type { DeliveryPage } from './delivery-pages.route';
import { DeliveryItemView } from './delivery-item.view';
import { deliveryPaging } from './delivery-pages.route';
import type { Delivery } from './delivery.format';
import { ProblemView } from './problem.view';
import { ReplayFailedView } from './replay-failed.view';
import type { ReplayWindow } from './replay-window.mapper';
import { WebhookApiClient } from './webhook-api.client';
import { useTexts } from './texts.context';

interface Props {
  api: ApiClient;
  formId: string;
  tag: string;
  /** The page shown, from the address: a reload keeps it. */
  page: DeliveryPage;
  go: (route: ConsoleRoute) => void;
  onSignInEnded: (error: ApiError) => void;
}

type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: unknown } | { state: 'loaded'; value: T };

export const deliveryPageSize = 20;
// How near a pending delivery's next attempt must be for the log to watch for it.
const soonMs = 60_000;

// The delivery log of one webhook, newest first, a page at a time as the API
// pages it (by cursor: older than the last delivery shown, or newer than the
// first); each delivery can be replayed. The log is read again on asking
// (Refresh), after a replay, and while a delivery is still pending. Every
// failed delivery of a window can be replayed at once too (ReplayFailedView).
export function DeliveryLogScreen({ api, formId, tag, page, go, onSignInEnded }: Props) {
  const { t } = useTexts();
  const webhooks = useMemo(() => new WebhookApiClient(api, formId), [api, formId]);
  const [webhook, setWebhook] = useState<WebhookResource>();
  const [log, setLog] = useState<Loaded<Delivery[]>>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  const [replaying, setReplaying] = useState<string>();
  const [notice, setNotice] = useState('');
  const [actionProblem, setActionProblem] = useState<unknown>();
  const [bulk, setBulk] = useState<{ replaying: boolean; problem?: unknown }>({ replaying: false });
  const heading = useRef<HTMLHeadingElement>(null);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.endsSignIn) onSignInEnded(error);
    return error;
  };

  useEffect(() => heading.current?.focus(), [formId, tag]);

  useEffect(() => {
    const abort = new AbortController();
    webhooks
      .get(tag, abort.signal)
      .then(setWebhook)
      // The log says what went wrong (the same form and tag): this is a summary above it.
      .catch(() => undefined);
    return () => abort.abort();
  }, [webhooks, tag, version]);

  useEffect(() => {
    const abort = new AbortController();
    webhooks
      .deliveries(tag, page, deliveryPageSize, abort.signal)
      .then((items) => setLog({ state: 'loaded', value: items }))
      .catch((error: unknown) => abort.signal.aborted || setLog({ state: 'failed', error: failed(error) }));
    return () => abort.abort();
  }, [webhooks, tag, page.before, page.after, version]);

  // A delivery about to be sent is read again until it settles, so a retry
  // or a replay shows without a Refresh; nothing is polled for a retry hours
  // away, nor once all have settled.
  const unsettled =
    log.state === 'loaded' &&
    log.value.some(
      (delivery) =>
        delivery.status === 'pending' &&
        (delivery.next_attempt_at === null || Date.parse(delivery.next_attempt_at) - Date.now() < soonMs),
    );
  useEffect(() => {
    if (!unsettled) return;
    const timer = setTimeout(() => setVersion((current) => current + 1), 2000);
    return () => clearTimeout(timer);
  }, [unsettled, version]);

  const replay = (delivery: Delivery) => {
    setReplaying(delivery.id);
    webhooks
      .redeliver(tag, delivery.id)
      .then(() => {
        setActionProblem(undefined);
        setNotice(t('log.replayed', { event: delivery.event_id }));
        setVersion((current) => current + 1);
      })
      .catch((error: unknown) => setActionProblem(failed(error)))
      .finally(() => setReplaying(undefined));
  };

  const replayFailed = (window: ReplayWindow) => {
    setBulk({ replaying: true });
    webhooks
      .redeliverFailed(tag, window)
      .then(({ redelivered, more }) => {
        setBulk({ replaying: false });
        setActionProblem(undefined);
        setNotice(
          redelivered === 0
            ? t('log.noneToReplay')
            : t(more ? 'log.replayedSomeMore' : 'log.replayedSome', { count: redelivered }),
        );
        // The newest page, where the replayed ones show as they settle.
        if (page.before || page.after) to({});
        else setVersion((current) => current + 1);
      })
      .catch((error: unknown) => setBulk({ replaying: false, problem: failed(error) }));
  };

  const items = log.state === 'loaded' ? log.value : [];
  const to = (next: DeliveryPage) => {
    setNotice('');
    go({ screen: 'deliveries', formId, tag, page: next });
  };
  const first = page.before === undefined && page.after === undefined;
  const paging = deliveryPaging(
    page,
    items.map((delivery) => delivery.id),
    deliveryPageSize,
  );
  const summary =
    log.state === 'loading'
      ? t('log.loading')
      : log.state === 'failed'
        ? ''
        : items.length === 0
          ? first
            ? t('log.none')
            : t('log.noneOnPage')
          : t('log.count', { count: items.length });

  return (
    <main id="main" class="delivery-log-screen" tabIndex={-1}>
      <p>
        <a href={hashOf({ screen: 'webhooks', formId })}>{t('log.back')}</a>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {t('log.heading', { tag })}
      </h1>
      {webhook && (
        <p class="meta">
          {t(webhook.enabled ? 'log.webhookOn' : 'log.webhookOff', { url: webhook.url })}
          {webhook.disabled_reason ? t('webhooks.disabledBy', { reason: webhook.disabled_reason }) : ''}
        </p>
      )}
      <p class="summary" role="status">
        {notice || summary}
      </p>
      {actionProblem !== undefined && <ProblemView error={actionProblem} />}
      {log.state === 'failed' && <ProblemView error={log.error} />}
      <div class="actions">
        <button type="button" onClick={() => setVersion((current) => current + 1)}>
          {t('log.refresh')}
        </button>
      </div>
      <ReplayFailedView replaying={bulk.replaying} problem={bulk.problem} onReplay={replayFailed} />
      <ul class="deliveries">
        {items.map((delivery) => (
          <DeliveryItemView
            key={delivery.id}
            delivery={delivery}
            replaying={replaying === delivery.id}
            onReplay={replay}
          />
        ))}
      </ul>
      {(paging.newer || paging.older) && (
        <nav class="pages" aria-label={t('log.pages')}>
          <PageButton label={t('log.newest')} to={paging.newest} go={to} />
          <PageButton label={t('log.newer')} to={paging.newer} go={to} />
          <PageButton label={t('log.older')} to={paging.older} go={to} />
        </nav>
      )}
    </main>
  );
}

// A paging button, off when there is nowhere to go.
function PageButton({
  label,
  to,
  go,
}: {
  label: string;
  to?: DeliveryPage;
  go: (page: DeliveryPage) => void;
}) {
  return (
    <button type="button" disabled={!to} onClick={() => to && go(to)}>
      {label}
    </button>
  );
}
