import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type DeliveryResource, wholeSecondsIso } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { itemsWithinPageBytes } from '@formline/input';
import { currentRequestId } from '@formline/ops';
import {
  DeliveryQueue,
  DeliveryRepository,
  type DeliveryPageQuery,
  type DeliveryRow,
} from '@formline/webhook-delivery';
import { WebhookService } from '../webhook/webhook.service';
import { presentAttempt } from './attempt-status';
import { testDeliveryBody } from './test-delivery.payload';

interface WebhookKey {
  accountId: string;
  formId: string;
  tag: string;
}

// The delivery log of a webhook: each event sent, with its newest attempts,
// paged by cursor; and sending one again on request.
@Injectable()
export class DeliveryLogService {
  constructor(
    private readonly webhooks: WebhookService,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  // Right to be forgotten: the responses' deliveries go, bodies and attempts.
  forgetResponses(accountId: string, responseTokens: readonly string[]): Promise<number> {
    return this.deliveries.forgetResponses(accountId, responseTokens, (rows) =>
      this.queue.removeForDeliveries(rows),
    );
  }

  async list(key: WebhookKey, query: DeliveryPageQuery): Promise<DeliveryResource[]> {
    const webhook = await this.webhooks.find(key);
    // A page read upwards from an `after` cursor keeps the deliveries nearest it.
    return itemsWithinPageBytes(
      (await this.deliveries.page(webhook.id, query)).map((row) => toDeliveryResource(row)),
      Boolean(query.after),
    );
  }

  async redeliver(key: WebhookKey, deliveryId: string): Promise<DeliveryResource> {
    const webhook = await this.webhooks.find(key);
    const row = await this.deliveries.reopen(deliveryId, webhook.id);
    if (!row) throw new DomainError(ErrorCode.NotFound, `Non existing delivery ${deliveryId}.`);
    await this.queue.addRedelivery(row.id, row.attemptCount, currentRequestId());
    return toDeliveryResource(row);
  }

  // Every failed delivery of a window sent once more, up to `limit`. When
  // the limit is reached, `more` says to ask again: those sent are no longer
  // failed, so the next request takes the next ones.
  async redeliverFailed(
    key: WebhookKey,
    window: { since: Date; until: Date },
    limit: number,
  ): Promise<{ redelivered: number; more: boolean }> {
    const webhook = await this.webhooks.find(key);
    const reopened = await this.deliveries.reopenFailed(webhook.id, window, limit);
    await this.queue.addRedeliveries(reopened, currentRequestId());
    return { redelivered: reopened.length, more: reopened.length === limit };
  }

  // A test delivery: planned like a submission's (a row in the log) and sent
  // as a redelivery is, once, even to a webhook turned off: a person asked.
  async sendTest(key: WebhookKey): Promise<DeliveryResource> {
    const webhook = await this.webhooks.find(key);
    const eventId = randomUUID();
    const now = new Date();
    const [planned] = await this.deliveries.plan([
      { eventId, webhookId: webhook.id, body: testDeliveryBody(key.formId, eventId, now) },
    ]);
    await this.queue.addRedelivery(planned.id, 0, currentRequestId());
    return {
      id: planned.id,
      event_id: eventId,
      status: 'pending',
      attempt_count: 0,
      next_attempt_at: null,
      created_at: wholeSecondsIso(now),
      attempts: [],
    };
  }
}

function toDeliveryResource(row: DeliveryRow): DeliveryResource {
  const now = new Date();
  return {
    id: row.id,
    event_id: row.eventId,
    status: row.status,
    attempt_count: row.attemptCount,
    next_attempt_at: row.nextAttemptAt ? wholeSecondsIso(row.nextAttemptAt) : null,
    created_at: wholeSecondsIso(row.createdAt),
    attempts: row.attempts.map((attempt) => presentAttempt(attempt, now)),
  };
}
