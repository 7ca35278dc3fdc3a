import { Injectable } from '@nestjs/common';
import type { ResponseSubmittedEvent } from '@formline/contracts';
import { WebhooksPrismaClient } from '@formline/db';
import { newPublicId } from '@formline/ids';
import { wantsFormResponses } from '../webhook/webhook.mapper';
import { DeliveryEnqueuer } from './delivery.enqueuer';

// One delivery per enabled webhook of the form that asked for form responses.
// The delivery row is unique per (event, webhook): planning an event twice
// finds the rows of the first pass, and only a still-pending one is enqueued
// again (its job id is the same, so BullMQ keeps a single job).
@Injectable()
export class DeliveryPlanner {
  constructor(
    private readonly db: WebhooksPrismaClient,
    private readonly enqueuer: DeliveryEnqueuer,
  ) {}

  async plan(event: ResponseSubmittedEvent): Promise<void> {
    const webhooks = await this.db.webhook.findMany({
      where: { formId: event.form_response.form_id, accountId: event.account_id, enabled: true },
    });
    const { account_id: _routing, ...payload } = event;
    const body = JSON.stringify(payload);
    for (const webhook of webhooks.filter((candidate) => wantsFormResponses(candidate.eventTypes))) {
      const delivery = await this.db.delivery.upsert({
        where: { eventId_webhookId: { eventId: event.event_id, webhookId: webhook.id } },
        create: { id: newPublicId(12), webhookId: webhook.id, eventId: event.event_id, body },
        update: {},
      });
      if (delivery.status === 'pending') await this.enqueuer.enqueue(delivery);
    }
  }
}
