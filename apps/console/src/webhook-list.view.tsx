import type { WebhookResource } from '@formline/contracts';
import { hashOf } from './console.route';
import { LastDeliveryView } from './last-delivery.view';
import type { WebhookApiClient } from './webhook-api.client';
import { useTexts } from './texts.context';

interface Props {
  webhooks: WebhookApiClient;
  items: WebhookResource[];
  version: number;
  /** The tag whose change is under way: its buttons wait. */
  busy?: string;
  onToggle: (webhook: WebhookResource) => void;
  onTest: (webhook: WebhookResource) => void;
  onEdit: (webhook: WebhookResource) => void;
  onDelete: (webhook: WebhookResource) => void;
}

// A form's webhooks, one card each: its tag, address, whether it is on (and
// why delivery stopped on its own, when it did), its newest delivery, and
// what can be done with it. Every button names its webhook for screen readers.
export function WebhookListView({
  webhooks,
  items,
  version,
  busy,
  onToggle,
  onTest,
  onEdit,
  onDelete,
}: Props) {
  const { t } = useTexts();
  return (
    <ul class="webhooks">
      {items.map((webhook) => {
        const titleId = `webhook-${webhook.tag}-title`;
        const named = <span class="visually-hidden">{t('list.theTitle', { title: webhook.tag })}</span>;
        return (
          <li key={webhook.tag} aria-labelledby={titleId}>
            <h2 id={titleId}>{webhook.tag}</h2>
            <p class="url">{webhook.url}</p>
            <p class={webhook.enabled ? 'state on' : 'state off'}>
              {webhook.enabled ? t('webhooks.on') : t('webhooks.off')}
              {webhook.disabled_reason ? t('webhooks.disabledBy', { reason: webhook.disabled_reason }) : ''}
            </p>
            <LastDeliveryView webhooks={webhooks} tag={webhook.tag} version={version} />
            <div class="actions">
              <button type="button" disabled={busy === webhook.tag} onClick={() => onToggle(webhook)}>
                {webhook.enabled ? t('webhooks.turnOff') : t('webhooks.turnOn')}
                {named}
              </button>
              <button type="button" disabled={busy === webhook.tag} onClick={() => onTest(webhook)}>
                {t('webhooks.sendTest')}
                <span class="visually-hidden">{t('webhooks.sendTestTo', { tag: webhook.tag })}</span>
              </button>
              <button type="button" onClick={() => onEdit(webhook)}>
                {t('list.edit')}
                {named}
              </button>
              <a
                class="button-link"
                href={hashOf({ screen: 'deliveries', formId: webhooks.formId, tag: webhook.tag, page: {} })}
              >
                {t('webhooks.deliveryLog')}
                {named}
              </a>
              <button type="button" disabled={busy === webhook.tag} onClick={() => onDelete(webhook)}>
                {t('list.delete')}
                {named}
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
