import { Injectable } from '@nestjs/common';
import type { DeliveryResource } from '@formline/contracts';
import { WebhooksPrismaClient } from '@formline/db';
import { DomainError, ErrorCode } from '@formline/errors';
import { WebhookService } from '../webhook/webhook.service';
import { DeliveryEnqueuer } from './delivery.enqueuer';

interface WebhookKey {
  accountId: string;
  formId: string;
  tag: string;
}

const withAttempts = { attempts: { orderBy: { attemptedAt: 'desc' as const } } };

// The delivery log of a webhook: each event sent, with every attempt, and
// sending one again on request.
@Injectable()
export class DeliveryLogService {
  constructor(
    private readonly db: WebhooksPrismaClient,
    private readonly webhooks: WebhookService,
    private readonly enqueuer: DeliveryEnqueuer,
  ) {}

  async list(key: WebhookKey, pageSize: number): Promise<DeliveryResource[]> {
    const webhook = await this.webhooks.find(key);
    const rows = await this.db.delivery.findMany({
      where: { webhookId: webhook.id },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: pageSize,
      include: withAttempts,
    });
    return rows.map(toDeliveryResource);
  }

  async redeliver(key: WebhookKey, deliveryId: string): Promise<DeliveryResource> {
    const webhook = await this.webhooks.find(key);
    const delivery = await this.db.delivery.findFirst({ where: { id: deliveryId, webhookId: webhook.id } });
    if (!delivery) throw new DomainError(ErrorCode.NotFound, `Non existing delivery ${deliveryId}.`);
    const row = await this.db.delivery.update({
      where: { id: delivery.id },
      data: { status: 'pending', nextAttemptAt: new Date() },
      include: withAttempts,
    });
    await this.enqueuer.redeliver(delivery.id, delivery.attemptCount);
    return toDeliveryResource(row);
  }
}

type DeliveryRow = {
  id: string;
  eventId: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  attempts: {
    attemptedAt: Date;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
    nextRetryAt: Date | null;
  }[];
};

function toDeliveryResource(row: DeliveryRow): DeliveryResource {
  return {
    id: row.id,
    event_id: row.eventId,
    status: row.status as DeliveryResource['status'],
    attempt_count: row.attemptCount,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    attempts: row.attempts.map((attempt) => ({
      attempted_at: attempt.attemptedAt.toISOString(),
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      error: attempt.error,
      next_retry_at: attempt.nextRetryAt?.toISOString() ?? null,
    })),
  };
}
