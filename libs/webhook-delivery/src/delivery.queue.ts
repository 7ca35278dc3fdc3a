import { QueueName } from '@formline/contracts';
import { type Job, type JobsOptions, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { sendOutcomeSchema } from './send-outcome';

// The region's webhook delivery queue, defined once for both of its sides: the
// webhooks service adds jobs (DeliveryQueue), the dispatcher works them
// (createDeliveryWorker). A job carries ids, never the document: the
// dispatcher loads the delivery and its webhook when it runs the job.

export const deliveryQueueName = QueueName.WebhookDelivery;

// What the dispatcher's policy decided after an attempt: done, again after
// `delayMs`, or stop (and disable the webhook when `disableReason` is set).
export const deliveryDecisionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('succeeded') }),
  z.object({ kind: z.literal('retry'), delayMs: z.int().min(0) }),
  z.object({ kind: z.literal('give-up'), disableReason: z.string().nullable() }),
]);
export type DeliveryDecision = z.output<typeof deliveryDecisionSchema>;

// An attempt that ended (the receiver answered, or did not) whose outcome the
// database could not take. Kept with the job, in Redis, so that the job's
// next run records it instead of sending again: a receiver that acknowledged
// a delivery never gets it twice because the database was away.
export const unrecordedAttemptSchema = z.object({
  attemptId: z.string().min(1),
  attemptNumber: z.int().min(1),
  webhookId: z.string().min(1),
  outcome: sendOutcomeSchema,
  decision: deliveryDecisionSchema,
  /** When the attempt ended (ms since the epoch): a retry is due `delayMs` after it. */
  endedAt: z.number(),
});
export type UnrecordedAttempt = z.output<typeof unrecordedAttemptSchema>;

export const deliveryJobSchema = z.object({
  deliveryId: z.string().min(1),
  // A redelivery asked for through the API: one attempt, no retries.
  once: z.boolean().optional(),
  // The request that caused it (the submission's X-Request-Id), for the logs
  // and the delivery's headers.
  requestId: z.string().max(200).optional(),
  unrecorded: unrecordedAttemptSchema.optional(),
});
export type DeliveryJob = z.output<typeof deliveryJobSchema>;

// Deterministic ids: an event consumed twice never enqueues twice (BullMQ
// keeps one job per id), and a person's redelivery is one job per attempt count.
// BullMQ refuses ':' in custom job ids, hence the dashes.
export const deliveryJobId = {
  planned: (eventId: string, webhookId: string) => `${eventId}-${webhookId}`,
  redelivery: (deliveryId: string, attemptCount: number) => `redeliver-${deliveryId}-${attemptCount}`,
};

// The backoff is the dispatcher's retry schedule: a failed run throws
// RetryDeliveryLater with the wait its policy chose, and the worker's backoff
// strategy hands that wait to BullMQ.
export const deliveryBackoffType = 'webhook';

export class RetryDeliveryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'RetryDeliveryLater';
  }
}

// The events BullMQ logs for the queue, about (it trims in blocks).
const deliveryEventLogLength = 1000;

// As many attempts as the schedule allows: the dispatcher's policy ends a
// delivery itself (UnrecoverableError), never BullMQ's attempt count.
const maxAttempts = 1000;

// A redelivery (`once`) gets the same count: its single send is ended by the
// policy too, and a run that failed before sending (database away), or whose
// outcome waits to be recorded, must run again.
export function deliveryJobOptions(jobId: string): JobsOptions {
  return {
    jobId,
    attempts: maxAttempts,
    backoff: { type: deliveryBackoffType },
    // Finished jobs stay a day, so their ids keep de-duplicating late re-consumptions.
    removeOnComplete: { age: 24 * 3600 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

export interface PlannedDelivery {
  id: string;
  eventId: string;
  webhookId: string;
}

// The producing side (webhooks service).
export class DeliveryQueue {
  readonly queue: Queue<DeliveryJob>;

  constructor(private readonly connection: Redis) {
    this.queue = new Queue<DeliveryJob>(deliveryQueueName, {
      connection,
      // BullMQ's log of job events (added, completed, removed, with job ids),
      // which nothing here reads: kept short, so that a purge can look
      // through it whole (removeForDeliveries).
      streams: { events: { maxLen: deliveryEventLogLength } },
    });
  }

  // One round trip for many deliveries; ids already queued are kept as they are.
  async addPlanned(deliveries: readonly (PlannedDelivery & { requestId?: string })[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.queue.addBulk(
      deliveries.map((delivery) => {
        const data: DeliveryJob = { deliveryId: delivery.id, requestId: delivery.requestId };
        return {
          name: deliveryQueueName,
          data,
          opts: deliveryJobOptions(deliveryJobId.planned(delivery.eventId, delivery.webhookId)),
        };
      }),
    );
  }

  async addRedelivery(deliveryId: string, attemptCount: number, requestId?: string): Promise<void> {
    const data: DeliveryJob = { deliveryId, once: true, requestId };
    await this.queue.add(
      deliveryQueueName,
      data,
      deliveryJobOptions(deliveryJobId.redelivery(deliveryId, attemptCount)),
    );
  }

  // Many redeliveries in one round trip, each with its own job id.
  async addRedeliveries(
    deliveries: readonly { id: string; attemptCount: number }[],
    requestId?: string,
  ): Promise<void> {
    if (deliveries.length === 0) return;
    await this.queue.addBulk(
      deliveries.map((delivery) => {
        const data: DeliveryJob = { deliveryId: delivery.id, once: true, requestId };
        return {
          name: deliveryQueueName,
          data,
          opts: deliveryJobOptions(deliveryJobId.redelivery(delivery.id, delivery.attemptCount)),
        };
      }),
    );
  }

  // The jobs of deliveries about to be deleted (their form was): planned
  // ones and every redelivery asked for, whatever their state (waiting,
  // delayed, finished). A job running now is locked and stays: the
  // dispatcher finds its delivery gone and ends it without sending.
  async removeForDeliveries(
    deliveries: readonly { id: string; eventId: string; webhookId: string; attemptCount: number }[],
  ): Promise<void> {
    const jobIds = deliveries.flatMap((delivery) => [
      deliveryJobId.planned(delivery.eventId, delivery.webhookId),
      ...Array.from({ length: delivery.attemptCount + 1 }, (_, count) =>
        deliveryJobId.redelivery(delivery.id, count),
      ),
    ]);
    await Promise.all(jobIds.map((jobId) => this.queue.remove(jobId).catch(() => 0)));
    await this.forgetEvents(new Set(jobIds));
  }

  // The entries of BullMQ's event log that name these jobs (their ids carry
  // the events' ids), the removals just logged included.
  private async forgetEvents(jobIds: ReadonlySet<string>): Promise<void> {
    const key = this.queue.keys.events;
    let start = '-';
    for (;;) {
      const entries = await this.connection.xrange(key, start, '+', 'COUNT', 500);
      const named = entries
        .filter(([, fields]) => fields.some((value, i) => i % 2 === 1 && jobIds.has(value)))
        .map(([id]) => id);
      if (named.length > 0) await this.connection.xdel(key, ...named);
      if (entries.length < 500) return;
      start = `(${entries[entries.length - 1][0]}`;
    }
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

export interface DeliveryWorkerOptions {
  concurrency: number;
  // How long a job stays claimed without a heartbeat (renewed every half of
  // it while the job runs): a dead dispatcher's jobs are taken over after
  // about this long plus the stalled-check interval.
  lockMs: number;
  stalledCheckMs: number;
  // The wait after a failure that did not say how long (should not happen).
  fallbackRetryMs: number;
}

// The consuming side (dispatcher). `work` throws RetryDeliveryLater to be
// tried again, UnrecoverableError to stop.
export function createDeliveryWorker(
  connection: Redis,
  work: (job: DeliveryJob, bullJob: Job<DeliveryJob>) => Promise<void>,
  options: DeliveryWorkerOptions,
): Worker<DeliveryJob> {
  return new Worker<DeliveryJob>(
    deliveryQueueName,
    async (job) => {
      const parsed = deliveryJobSchema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`not a delivery job: ${parsed.error.message}`);
      await work(parsed.data, job);
    },
    {
      connection,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.stalledCheckMs,
      // A job whose dispatcher died mid-send is taken over, however often that happens.
      maxStalledCount: 100,
      settings: {
        backoffStrategy: (_attempts, _type, error) =>
          error instanceof RetryDeliveryLater ? error.delayMs : options.fallbackRetryMs,
      },
    },
  );
}
