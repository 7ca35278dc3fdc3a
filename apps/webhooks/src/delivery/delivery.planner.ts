import { Injectable } from '@nestjs/common';
import type { ResponseSubmittedEvent } from '@formline/contracts';
import { DeliveryQueue, DeliveryRepository } from '@formline/webhook-delivery';
import { wantsEvent } from '../webhook/webhook.mapper';
import { WebhookRepository } from '../webhook/webhook.repository';

export interface PlannableEvent {
  event: ResponseSubmittedEvent;
  /** The submission's request id, carried on by its jobs. */
  requestId?: string;
}

// Turns submission events into deliveries, many events at once: one read of
// the webhooks of their forms, one insert of a row per (event, enabled webhook
// that wants its kind), one enqueue of the jobs of the rows still
// pending. Each webhook gets the kinds of event it subscribed to (completed
// submissions, partial responses). Planning the same events again finds their rows (unique per event
// and webhook) and their jobs (deterministic ids): nothing is doubled.
@Injectable()
export class DeliveryPlanner {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  async plan(events: readonly PlannableEvent[]): Promise<void> {
    if (events.length === 0) return;
    const webhooks = await this.webhooks.enabledOfForms([
      ...new Set(events.map(({ event }) => event.form_response.form_id)),
    ]);
    const items = new Map<
      string,
      { eventId: string; webhookId: string; body: string; responseToken: string }
    >();
    const requestIds = new Map<string, string | undefined>();
    for (const { event, requestId } of events) {
      const { account_id: _routing, ...payload } = event;
      const body = JSON.stringify(payload);
      requestIds.set(event.event_id, requestId);
      for (const webhook of webhooks) {
        if (webhook.formId !== event.form_response.form_id || webhook.accountId !== event.account_id)
          continue;
        if (!wantsEvent(webhook.eventTypes, event)) continue;
        items.set(`${event.event_id} ${webhook.id}`, {
          eventId: event.event_id,
          webhookId: webhook.id,
          body,
          responseToken: event.form_response.token,
        });
      }
    }
    const pending = await this.deliveries.plan([...items.values()]);
    await this.queue.addPlanned(
      pending.map((delivery) => ({ ...delivery, requestId: requestIds.get(delivery.eventId) })),
    );
  }
}
