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
  DeliveryQueue,
  DeliveryRepository,
  DeliveryStatus,
  type FirstAttemptsJob,
  type PlannedDeliveryItem,
  type QueuedDeliveryWork,
  RetryDeliveryLater,
  SecretBox,
  SendFailureKind,
  type SendOutcome,
  standardWebhookSignature,
  typeformSignature,
  type UnrecordedAttempt,
} from '@formline/webhook-delivery';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import { type Job, UnrecoverableError, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '@formline/app-config';
import { RetryPolicy } from './retry.policy';
import { SendSlots } from './send-slots';
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
//
// Deliveries planned together come as one first-attempts job: their first
// attempts run at once, each as above, and a delivery whose first attempt did
// not succeed goes on in a job of its own (handed over with its wait, and
// with its outcome when the database did not take it), as if it had had one
// from the start.
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly retries: RetryPolicy;
  private readonly sends: SendSlots;
  private worker?: Worker<QueuedDeliveryWork>;
  private queue?: DeliveryQueue;
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
    this.sends = new SendSlots(config.DISPATCHER_CONCURRENCY);
  }

  onApplicationBootstrap(): void {
    this.queue = new DeliveryQueue(this.redis.duplicate());
    this.worker = createDeliveryWorker(
      this.redis.duplicate(),
      {
        // Each delivery runs under the request id of the submission that caused it.
        delivery: (job, bullJob) => runWithRequestId(job.requestId, () => this.deliver(job, bullJob)),
        firstAttempts: (job) => this.deliverFirstAttempts(job),
      },
      {
        concurrency: this.config.DISPATCHER_CONCURRENCY,
        lockMs: this.config.DISPATCHER_LOCK_MS,
        stalledCheckMs: Math.max(1000, Math.floor(this.config.DISPATCHER_LOCK_MS / 2)),
        fallbackRetryMs: this.config.WEBHOOK_RETRY_SCHEDULE_MS[0],
      },
    );
    this.worker.on('error', (error) => this.logger.warn(`delivery worker: ${String(error)}`));
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
      const counts = await this.queue!.queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
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
    await this.exclusively(job.deliveryId, () =>
      this.runOnce(job, {
        firstOnly: false,
        keep: (ended, error) => this.keepUnrecorded(bullJob, ended, error),
      }),
    );
  }

  // A first-attempts job: each delivery's first attempt, all at once (within
  // the send slots); then, in one round trip, the deliveries whose first
  // attempt did not succeed to their own jobs. If that hand-over fails (Redis
  // away), the whole job runs again later: a delivery attempted already is
  // not sent again by it (first attempts only), just handed over again.
  async deliverFirstAttempts(job: FirstAttemptsJob): Promise<void> {
    const handOver: Parameters<DeliveryQueue['handOver']>[0][number][] = [];
    await Promise.all(
      job.deliveries.map(async (item) => {
        const later = await runWithRequestId(item.requestId, () => this.firstAttempt(item));
        if (later) handOver.push({ ...item, ...later });
      }),
    );
    await this.queue!.handOver(handOver);
  }

  // One delivery's first attempt. Undefined when nothing more is to be done
  // for it (delivered, stopped, gone); else when its own job should run.
  private async firstAttempt(
    item: PlannedDeliveryItem,
  ): Promise<{ delayMs: number; unrecorded?: UnrecordedAttempt } | undefined> {
    try {
      await this.exclusively(item.deliveryId, () =>
        this.runOnce(
          { deliveryId: item.deliveryId, requestId: item.requestId },
          {
            firstOnly: true,
            keep: (ended, error) =>
              Promise.reject(
                new RetryDeliveryLater(
                  `outcome not recorded yet: ${String(error)}`,
                  this.config.WEBHOOK_RETRY_SCHEDULE_MS[0],
                  ended,
                ),
              ),
          },
        ),
      );
      return undefined;
    } catch (error) {
      if (error instanceof UnrecoverableError) return undefined;
      if (error instanceof RetryDeliveryLater)
        return { delayMs: error.delayMs, unrecorded: error.unrecorded };
      // It could not even begin (the database away, a secret that does not
      // open): its own job tries again after the schedule's first wait.
      this.logger.warn(`first attempt of delivery ${item.deliveryId} did not run: ${String(error)}`);
      return { delayMs: this.config.WEBHOOK_RETRY_SCHEDULE_MS[0] };
    }
  }

  // Runs `work` for a delivery once no earlier run of it in this process is
  // still going.
  private async exclusively(deliveryId: string, work: () => Promise<void>): Promise<void> {
    const earlier = this.running.get(deliveryId);
    const run = (async () => {
      if (earlier) await earlier.catch(() => undefined);
      await work();
    })();
    this.running.set(deliveryId, run);
    try {
      await run;
    } finally {
      if (this.running.get(deliveryId) === run) this.running.delete(deliveryId);
    }
  }

  // `firstOnly`: send only if the delivery has had no attempt (a first-attempts
  // job); else, one attempted already goes on in its own job, handed over
  // again with the wait its last attempt set. `keep`: what to do with an
  // outcome the database did not take.
  private async runOnce(
    job: DeliveryJob,
    run: { firstOnly: boolean; keep: (ended: UnrecordedAttempt, error: unknown) => Promise<never> },
  ): Promise<void> {
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
      firstOnly: run.firstOnly,
    });
    // Gone with its webhook.
    if (!started) return;
    const { delivery, attempt } = started;
    const { webhook } = delivery;
    if (!attempt) {
      // Ended by an earlier run of this job, or its webhook was disabled meanwhile.
      if (delivery.status === DeliveryStatus.pending && !webhook.enabled)
        await this.deliveries.abandon(delivery.id);
      // Attempted already by an earlier run of its first-attempts job: its own job goes on.
      else if (delivery.status === DeliveryStatus.pending && run.firstOnly)
        throw new RetryDeliveryLater(
          'attempted already',
          Math.max(0, (delivery.nextAttemptAt?.getTime() ?? 0) - Date.now()),
        );
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
    const outcome = await this.sends.run(() =>
      sendWebhook(
        {
          url: webhook.url,
          verifySsl: webhook.verifySsl,
          body: delivery.body,
          headers: this.headers(delivery.eventId, delivery.body, secret),
          timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        },
        this.urls,
      ),
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
      await run.keep(ended, error);
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
