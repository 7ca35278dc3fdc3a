import type { WebhookResource } from '@formline/contracts';
import { hashOf } from './console.route';
import { LastDeliveryView } from './last-delivery.view';
import type { WebhookApiClient } from './webhook-api.client';

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
  return (
    <ul class="webhooks">
      {items.map((webhook) => {
        const titleId = `webhook-${webhook.tag}-title`;
        const named = <span class="visually-hidden"> {webhook.tag}</span>;
        return (
          <li key={webhook.tag} aria-labelledby={titleId}>
            <h2 id={titleId}>{webhook.tag}</h2>
            <p class="url">{webhook.url}</p>
            <p class={webhook.enabled ? 'state on' : 'state off'}>
              {webhook.enabled ? 'On' : 'Off'}
              {webhook.disabled_reason ? `: turned off by delivery, ${webhook.disabled_reason}` : ''}
            </p>
            <LastDeliveryView webhooks={webhooks} tag={webhook.tag} version={version} />
            <div class="actions">
              <button type="button" disabled={busy === webhook.tag} onClick={() => onToggle(webhook)}>
                {webhook.enabled ? 'Turn off' : 'Turn on'}
                {named}
              </button>
              <button type="button" disabled={busy === webhook.tag} onClick={() => onTest(webhook)}>
                Send a test<span class="visually-hidden"> delivery to {webhook.tag}</span>
              </button>
              <button type="button" onClick={() => onEdit(webhook)}>
                Edit{named}
              </button>
              <a
                class="button-link"
                href={hashOf({ screen: 'deliveries', formId: webhooks.formId, tag: webhook.tag, page: {} })}
              >
                Delivery log{named}
              </a>
              <button type="button" disabled={busy === webhook.tag} onClick={() => onDelete(webhook)}>
                Delete{named}
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
