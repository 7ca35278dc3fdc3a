import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { QueueName, type WebhookDeliveryJob } from '@formline/contracts';
import { WebhooksPrismaClient } from '@formline/db';
import { newPublicId } from '@formline/ids';
import {
  type DeliveryOutcome,
  recordDeliveryAttempt,
  recordDeliveryLatency,
  requestIdHeaders,
  runWithRequestId,
  setQueueDepth,
} from '@formline/ops';
import {
  SecretBox,
  standardWebhookSignature,
  typeformSignature,
  WebhookUrlPolicy,
} from '@formline/webhook-delivery';
import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '../dispatcher.config';
import { RetryPolicy } from './retry.policy';
import { type SendOutcome, sendWebhook } from './webhook.sender';

// Thrown to have BullMQ try the job again after `delayMs` (the 'webhook' backoff).
class RetryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

// The one worker of the delivery queue. A job names a delivery; the worker
// loads it and its webhook, sends, and records the attempt before deciding:
// done, again later (BullMQ keeps the delayed job in Redis, so a dispatcher
// that dies loses nothing: its active jobs are taken over once their lock
// lapses), or given up, the webhook disabled with the reason when it is gone.
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly retries: RetryPolicy;
  private worker?: Worker<WebhookDeliveryJob>;
  private queue?: Queue;
  private depthTimer?: NodeJS.Timeout;

  constructor(
    private readonly db: WebhooksPrismaClient,
    @Inject(Redis) private readonly redis: Redis,
    @Inject(SecretBox) private readonly secrets: SecretBox,
    @Inject(WebhookUrlPolicy) private readonly urls: WebhookUrlPolicy,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
  ) {
    this.retries = new RetryPolicy(config);
  }

  onApplicationBootstrap(): void {
    this.worker = new Worker<WebhookDeliveryJob>(
      QueueName.WebhookDelivery,
      // Each job runs under the request id of the submission that caused it.
      (job) => runWithRequestId(job.data.requestId, () => this.deliver(job)),
      {
        connection: this.redis.duplicate(),
        concurrency: this.config.DISPATCHER_CONCURRENCY,
        lockDuration: this.config.DISPATCHER_LOCK_MS,
        stalledInterval: this.config.DISPATCHER_LOCK_MS,
        // A job whose dispatcher died mid-send is taken over, however often that happens.
        maxStalledCount: 100,
        settings: {
          backoffStrategy: (_attempts, _type, error) =>
            error instanceof RetryLater ? error.delayMs : this.config.WEBHOOK_RETRY_SCHEDULE_MS[0],
        },
      },
    );
    this.worker.on('error', (error) => this.logger.warn(`delivery worker: ${String(error)}`));
    this.queue = new Queue(QueueName.WebhookDelivery, { connection: this.redis.duplicate() });
    this.depthTimer = setInterval(() => void this.reportDepth(), 5000);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.depthTimer);
    await this.worker?.close();
    await this.queue?.close();
  }

  // Jobs by state, for the queue-depth gauge.
  private async reportDepth(): Promise<void> {
    try {
      const counts = await this.queue!.getJobCounts('waiting', 'active', 'delayed', 'failed');
      setQueueDepth(QueueName.WebhookDelivery, counts);
    } catch {
      // Redis away: the gauge keeps its last value until it answers again.
    }
  }

  async deliver(job: Job<WebhookDeliveryJob>): Promise<void> {
    const once = job.data.once === true;
    const delivery = await this.db.delivery.findUnique({
      where: { id: job.data.deliveryId },
      include: { webhook: true },
    });
    // Gone with its webhook, or already delivered by an earlier run of this job.
    if (!delivery || (delivery.status === 'succeeded' && !once)) return;
    const { webhook } = delivery;
    if (!webhook.enabled && !once) {
      await this.db.delivery.update({
        where: { id: delivery.id },
        data: { status: 'failed', nextAttemptAt: null },
      });
      return;
    }
    const secret = webhook.secretSealed === null ? null : this.secrets.open(webhook.secretSealed);
    this.logger.log(
      `delivering event ${delivery.eventId} to webhook ${webhook.id}, attempt ${delivery.attemptCount + 1}`,
    );
    const outcome = await sendWebhook(
      {
        url: webhook.url,
        verifySsl: webhook.verifySsl,
        body: delivery.body,
        headers: this.headers(delivery.eventId, delivery.body, secret),
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      },
      this.urls,
    );
    recordDeliveryAttempt(outcomeOf(outcome), outcome.durationMs / 1000);
    if (isSuccess(outcome)) recordDeliveryLatency((Date.now() - delivery.createdAt.getTime()) / 1000);
    const attemptNumber = delivery.attemptCount + 1;
    const decision = this.retries.decide(outcome, attemptNumber, once);
    const nextRetryAt = decision.kind === 'retry' ? new Date(Date.now() + decision.delayMs) : null;
    const status =
      decision.kind === 'succeeded' ? 'succeeded' : decision.kind === 'retry' ? 'pending' : 'failed';
    await this.db.$transaction([
      this.db.deliveryAttempt.create({
        data: {
          id: newPublicId(12),
          deliveryId: delivery.id,
          statusCode: outcome.statusCode,
          durationMs: outcome.durationMs,
          error: outcome.error?.slice(0, 1000) ?? null,
          nextRetryAt,
        },
      }),
      this.db.delivery.update({
        where: { id: delivery.id },
        data: { attemptCount: { increment: 1 }, status, nextAttemptAt: nextRetryAt },
      }),
      ...(decision.kind === 'give-up' && decision.disableReason !== null
        ? [
            this.db.webhook.update({
              where: { id: webhook.id },
              data: { enabled: false, disabledReason: decision.disableReason.slice(0, 1000) },
            }),
          ]
        : []),
    ]);
    if (decision.kind === 'retry') throw new RetryLater(outcome.error ?? 'failed', decision.delayMs);
    if (decision.kind === 'give-up') throw new UnrecoverableError(outcome.error ?? 'failed');
  }

  // Typeform's signature and Standard Webhooks' headers; `webhook-id` is the
  // event id, the same on every attempt, for receivers to de-duplicate.
  private headers(eventId: string, body: string, secret: string | null): Record<string, string> {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      ...requestIdHeaders(),
      'content-type': 'application/json',
      'user-agent': 'Formline-Webhooks/1.0',
      'webhook-id': eventId,
      'webhook-timestamp': String(timestamp),
    };
    if (secret !== null) {
      headers['typeform-signature'] = typeformSignature(secret, body);
      headers['webhook-signature'] = standardWebhookSignature(secret, eventId, timestamp, body);
    }
    return headers;
  }
}

function isSuccess(outcome: SendOutcome): boolean {
  return outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
}

function outcomeOf(outcome: SendOutcome): DeliveryOutcome {
  if (isSuccess(outcome)) return 'delivered';
  if (outcome.statusCode !== null) return 'http_error';
  return outcome.error?.startsWith('no answer within') ? 'timeout' : 'network_error';
}
