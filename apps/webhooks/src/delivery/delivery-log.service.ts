import { Injectable } from '@nestjs/common';
import { type DeliveryResource, wholeSecondsIso } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { currentRequestId } from '@formline/ops';
import {
  DeliveryQueue,
  DeliveryRepository,
  type DeliveryPageQuery,
  type DeliveryRow,
} from '@formline/webhook-delivery';
import { WebhookService } from '../webhook/webhook.service';
import { presentAttempt } from './attempt-status';

interface WebhookKey {
  accountId: string;
  formId: string;
  tag: string;
}

// The delivery log of a webhook: each event sent, with every attempt, paged by
// cursor; and sending one again on request.
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
    return (await this.deliveries.page(webhook.id, query)).map((row) => toDeliveryResource(row));
  }

  async redeliver(key: WebhookKey, deliveryId: string): Promise<DeliveryResource> {
    const webhook = await this.webhooks.find(key);
    const row = await this.deliveries.reopen(deliveryId, webhook.id);
    if (!row) throw new DomainError(ErrorCode.NotFound, `Non existing delivery ${deliveryId}.`);
    await this.queue.addRedelivery(row.id, row.attemptCount, currentRequestId());
    return toDeliveryResource(row);
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
