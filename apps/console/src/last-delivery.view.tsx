import type { DeliveryResource } from '@formline/contracts';
import { useEffect, useState } from 'preact/hooks';
import { errorInWords } from './api.client';
import { lastDeliverySummary } from './delivery.format';
import type { WebhookApiClient } from './webhook-api.client';
import { useTexts } from './texts.context';

interface Props {
  webhooks: WebhookApiClient;
  tag: string;
  /** Changes when the list is reloaded, so the newest delivery is asked again. */
  version: number;
}

// A webhook's newest delivery, for its line in the list: the API lists no
// such field, so it is the first item of the webhook's delivery log.
export function LastDeliveryView({ webhooks, tag, version }: Props) {
  const texts = useTexts();
  const { t } = texts;
  const [text, setText] = useState(t('lastDelivery.loading'));
  useEffect(() => {
    const abort = new AbortController();
    webhooks
      .deliveries(tag, {}, 1, abort.signal)
      .then(([newest]: DeliveryResource[]) =>
        setText(t('lastDelivery.is', { summary: lastDeliverySummary(newest, texts) })),
      )
      .catch(
        (error: unknown) =>
          abort.signal.aborted || setText(t('lastDelivery.unread', { why: errorInWords(error, texts) })),
      );
    return () => abort.abort();
  }, [webhooks, tag, version]);
  return <p class="meta">{text}</p>;
}
