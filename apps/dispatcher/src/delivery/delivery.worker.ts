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
  type UnrecordedAttempt,
} from '@formline/webhook-delivery';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import { type Job, Queue, UnrecoverableError, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '@formline/app-config';
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
// An attempt that ended is never sent again because its outcome could not be
// written: the outcome waits with the job until the database takes it.
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly retries: RetryPolicy;
  private worker?: Worker<DeliveryJob>;
  private queue?: Queue;
  private depthTimer?: NodeJS.Timeout;
  // The run of each delivery under way in this process.
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly redis: Redis,
    private readonly secrets: SecretBox,
    private readonly urls: OutboundUrlPolicy,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
  ) {
    this.retries = new RetryPolicy(config);
  }

  onApplicationBootstrap(): void {
    this.worker = createDeliveryWorker(
      this.redis.duplicate(),
      // Each job runs under the request id of the submission that caused it.
      (job, bullJob) => runWithRequestId(job.requestId, () => this.deliver(job, bullJob)),
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

  // One run of a job. A run that finds an earlier run of the same delivery
  // still going in this process (the job's lock lapsed while the event loop
  // stalled, and BullMQ handed the job out again) waits for it and then looks
  // again, rather than sending beside it.
  async deliver(job: DeliveryJob, bullJob: Job<DeliveryJob>): Promise<void> {
    const earlier = this.running.get(job.deliveryId);
    const run = (async () => {
      if (earlier) await earlier.catch(() => undefined);
      await this.runOnce(job, bullJob);
    })();
    this.running.set(job.deliveryId, run);
    try {
      await run;
    } finally {
      if (this.running.get(job.deliveryId) === run) this.running.delete(job.deliveryId);
    }
  }

  private async runOnce(job: DeliveryJob, bullJob: Job<DeliveryJob>): Promise<void> {
    const once = job.once === true;
    // An earlier run sent, and the database could not take the outcome: record
    // it now (this throws while the database is still away: the job runs
    // again later), and never send again for it.
    if (job.unrecorded) {
      if (await this.record(job.deliveryId, job.unrecorded)) {
        this.logger.log(
          `recorded attempt ${job.unrecorded.attemptNumber} of delivery ${job.deliveryId}, kept in the queue while the database was away`,
        );
        return conclude(job.unrecorded);
      }
      // That run's record had committed after all: carry on as usual.
    }
    // In flight for the send's timeout plus a lock's length (time to record).
    const started = await this.deliveries.startAttempt(job.deliveryId, {
      once,
      inFlightMs: this.config.WEBHOOK_TIMEOUT_MS + this.config.DISPATCHER_LOCK_MS,
    });
    // Gone with its webhook.
    if (!started) return;
    const { delivery, attempt } = started;
    const { webhook } = delivery;
    if (!attempt) {
      // Ended by an earlier run of this job, or its webhook was disabled meanwhile.
      if (delivery.status === DeliveryStatus.pending && !webhook.enabled)
        await this.deliveries.abandon(delivery.id);
      return;
    }
    let secret: string | null;
    try {
      secret = webhook.secretSealed === null ? null : this.secrets.open(webhook.secretSealed);
    } catch (error) {
      // Unsigned it must not go (a key missing from WEBHOOK_SECRET_KEYS): the
      // attempt never happened, and the job runs again later.
      await this.deliveries.cancelAttempt(delivery.id, attempt);
      throw error;
    }
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
    const ended: UnrecordedAttempt = {
      ...attempt,
      webhookId: webhook.id,
      outcome,
      decision: this.retries.decide(outcome, attempt.attemptNumber, once),
      endedAt: Date.now(),
    };
    // Every attempt is in the delivery log and the metrics: a line for each
    // delivered one only at debug, for each failed one always.
    const what = `attempt ${attempt.attemptNumber} of event ${delivery.eventId} to webhook ${webhook.id}`;
    if (outcome.ok) this.logger.debug(`${what} delivered (${outcome.statusCode})`);
    else this.logger.log(`${what} failed (${outcome.kind}): ${outcome.message}; ${ended.decision.kind}`);
    try {
      await this.record(delivery.id, ended);
    } catch (error) {
      await this.keepUnrecorded(bullJob, ended, error);
    }
    if (ended.decision.kind === 'succeeded')
      recordDeliveryLatency((Date.now() - delivery.createdAt.getTime()) / 1000);
    conclude(ended);
  }

  // Writes how an attempt ended and the delivery's next state. False when it
  // was written already.
  private record(deliveryId: string, ended: UnrecordedAttempt): Promise<boolean> {
    const { decision, outcome } = ended;
    switch (decision.kind) {
      case 'succeeded':
        return this.deliveries.succeed(deliveryId, ended, outcome);
      case 'retry':
        return this.deliveries.retryLater(
          deliveryId,
          ended,
          outcome,
          new Date(ended.endedAt + decision.delayMs),
        );
      case 'give-up':
        return this.deliveries.giveUp(
          deliveryId,
          ended,
          outcome,
          decision.disableReason === null
            ? null
            : { webhookId: ended.webhookId, reason: decision.disableReason },
        );
    }
  }

  // The database did not take an attempt's outcome: keep it with the job (in
  // Redis) and run the job again soon, to record it then. Only when Redis
  // refuses too is the outcome lost, and the delivery sent again.
  private async keepUnrecorded(
    bullJob: Job<DeliveryJob>,
    ended: UnrecordedAttempt,
    error: unknown,
  ): Promise<never> {
    const what = `attempt ${ended.attemptNumber} of delivery ${bullJob.data.deliveryId} (${ended.outcome.ok ? `answered ${ended.outcome.statusCode}` : ended.outcome.message})`;
    try {
      await bullJob.updateData({ ...bullJob.data, unrecorded: ended });
    } catch (redisError) {
      this.logger.error(
        `${what}: neither the database (${String(error)}) nor Redis (${String(redisError)}) took its outcome; it will be sent again`,
      );
      throw error;
    }
    this.logger.warn(`${what}: outcome kept in the queue until the database takes it: ${String(error)}`);
    throw new RetryDeliveryLater(
      `outcome not recorded yet: ${String(error)}`,
      this.config.WEBHOOK_RETRY_SCHEDULE_MS[0],
    );
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

// Ends a run as its attempt's decision says: done, again later (the wait
// counted from when the attempt ended), or stop for good.
function conclude(ended: UnrecordedAttempt): void {
  const { decision, outcome } = ended;
  switch (decision.kind) {
    case 'succeeded':
      return;
    case 'retry':
      throw new RetryDeliveryLater(
        failureMessage(outcome),
        Math.max(0, ended.endedAt + decision.delayMs - Date.now()),
      );
    case 'give-up':
      throw new UnrecoverableError(failureMessage(outcome));
  }
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
