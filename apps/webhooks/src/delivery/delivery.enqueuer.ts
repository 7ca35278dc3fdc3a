import { Injectable } from '@nestjs/common';
import { QueueName, type WebhookDeliveryJob, webhookDeliveryJobId } from '@formline/contracts';
import { withRequestId } from '@formline/ops';
import { DeliveryQueue } from '../webhooks.tokens';

// Puts deliveries on the region's queue. A job carries only the delivery id;
// the dispatcher loads the rest, and owns the retry policy: the job's many
// attempts and its 'webhook' backoff are decided by the dispatcher's schedule.
@Injectable()
export class DeliveryEnqueuer {
  constructor(private readonly queue: DeliveryQueue) {}

  // Deterministic job id: an event consumed twice adds the job once.
  async enqueue(delivery: { id: string; eventId: string; webhookId: string }): Promise<void> {
    await this.add(
      webhookDeliveryJobId(delivery.eventId, delivery.webhookId),
      withRequestId({ deliveryId: delivery.id }),
    );
  }

  // One more attempt, asked for by a person: sent once, not retried.
  async redeliver(deliveryId: string, attemptCount: number): Promise<void> {
    await this.add(`redeliver-${deliveryId}-${attemptCount}`, withRequestId({ deliveryId, once: true }));
  }

  private async add(jobId: string, data: WebhookDeliveryJob): Promise<void> {
    await this.queue.add(QueueName.WebhookDelivery, data, {
      jobId,
      attempts: data.once ? 1 : 1000,
      backoff: { type: 'webhook' },
      // Finished jobs stay a day, so their ids keep de-duplicating late re-consumptions.
      removeOnComplete: { age: 24 * 3600 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
  }
}
