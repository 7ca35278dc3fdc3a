import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { QueueName } from '@formline/contracts';
import {
  type DeliveryOutcome,
  recordDeliveryAttempt,
  recordDeliveryLatency,
  requestIdHeaders,
  runWithRequestId,
  setQueueDepth,
} from '@formline/ops';
import {
  createDeliveryWorker,
  type DeliveryJob,
  DeliveryRepository,
  deliveryQueueName,
  DeliveryStatus,
  RetryDeliveryLater,
  SecretBox,
  SendFailureKind,
  type SendOutcome,
  standardWebhookSignature,
  typeformSignature,
  WebhookUrlPolicy,
} from '@formline/webhook-delivery';
import { Queue, UnrecoverableError, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '../dispatcher.config';
import { RetryPolicy } from './retry.policy';
import { sendWebhook } from './webhook.sender';

// The one worker of the delivery queue. A job names a delivery; the worker
// loads it and its webhook, writes the attempt, sends, and records how it
// ended before deciding: done, again later (BullMQ keeps the delayed job in
// Redis, so a dispatcher that dies loses nothing: its active jobs are taken
// over once their lock lapses), or given up, the webhook disabled with the
// reason when it is gone. The attempt is written before the POST so that a
// dispatcher killed mid-send leaves an `interrupted` attempt in the log: the
// receiver may have had it, and the takeover sends it again (at least once).
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly retries: RetryPolicy;
  private worker?: Worker<DeliveryJob>;
  private queue?: Queue;
  private depthTimer?: NodeJS.Timeout;

  constructor(
    @Inject(DeliveryRepository) private readonly deliveries: DeliveryRepository,
    @Inject(Redis) private readonly redis: Redis,
    @Inject(SecretBox) private readonly secrets: SecretBox,
    @Inject(WebhookUrlPolicy) private readonly urls: WebhookUrlPolicy,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
  ) {
    this.retries = new RetryPolicy(config);
  }

  onApplicationBootstrap(): void {
    this.worker = createDeliveryWorker(
      this.redis.duplicate(),
      // Each job runs under the request id of the submission that caused it.
      (job) => runWithRequestId(job.requestId, () => this.deliver(job)),
      {
        concurrency: this.config.DISPATCHER_CONCURRENCY,
        lockMs: this.config.DISPATCHER_LOCK_MS,
        stalledCheckMs: Math.max(1000, Math.floor(this.config.DISPATCHER_LOCK_MS / 2)),
        fallbackRetryMs: this.config.WEBHOOK_RETRY_SCHEDULE_MS[0],
      },
    );
    this.worker.on('error', (error) => this.logger.warn(`delivery worker: ${String(error)}`));
    this.queue = new Queue(deliveryQueueName, { connection: this.redis.duplicate() });
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

  async deliver(job: DeliveryJob): Promise<void> {
    const once = job.once === true;
    const delivery = await this.deliveries.findToSend(job.deliveryId);
    // Gone with its webhook, or already delivered by an earlier run of this job.
    if (!delivery || (delivery.status === DeliveryStatus.succeeded && !once)) return;
    const { webhook } = delivery;
    if (!webhook.enabled && !once) {
      await this.deliveries.abandon(delivery.id);
      return;
    }
    const secret = webhook.secretSealed === null ? null : this.secrets.open(webhook.secretSealed);
    const attempt = await this.deliveries.beginAttempt(delivery.id);
    this.logger.log(
      `delivering event ${delivery.eventId} to webhook ${webhook.id}, attempt ${attempt.attemptNumber}`,
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
    const decision = this.retries.decide(outcome, attempt.attemptNumber, once);
    switch (decision.kind) {
      case 'succeeded':
        recordDeliveryLatency((Date.now() - delivery.createdAt.getTime()) / 1000);
        await this.deliveries.succeed(delivery.id, attempt, outcome);
        return;
      case 'retry':
        await this.deliveries.retryLater(
          delivery.id,
          attempt,
          outcome,
          new Date(Date.now() + decision.delayMs),
        );
        throw new RetryDeliveryLater(failureMessage(outcome), decision.delayMs);
      case 'give-up':
        await this.deliveries.giveUp(
          delivery.id,
          attempt,
          outcome,
          decision.disableReason === null ? null : { webhookId: webhook.id, reason: decision.disableReason },
        );
        throw new UnrecoverableError(failureMessage(outcome));
    }
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

function failureMessage(outcome: SendOutcome): string {
  return outcome.ok ? 'succeeded' : outcome.message;
}

function outcomeOf(outcome: SendOutcome): DeliveryOutcome {
  if (outcome.ok) return 'delivered';
  switch (outcome.kind) {
    case SendFailureKind.http_status:
      return 'http_error';
    case SendFailureKind.timeout:
      return 'timeout';
    case SendFailureKind.connection_refused:
    case SendFailureKind.connection_reset:
    case SendFailureKind.dns:
    case SendFailureKind.tls:
    case SendFailureKind.address_refused:
    case SendFailureKind.network:
    case SendFailureKind.interrupted:
      return 'network_error';
  }
}
