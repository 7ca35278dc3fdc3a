import { createHash } from 'node:crypto';
import { QueueName } from '@formline/contracts';
import { type Job, type JobsOptions, Queue, UnrecoverableError, Worker, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { sendOutcomeSchema } from './send-outcome';

// The region's webhook delivery queue, defined once for both of its sides: the
// webhooks service adds jobs (DeliveryQueue), the dispatcher works them
// (createDeliveryWorker). A job carries ids, never the document: the
// dispatcher loads the delivery and its webhook when it runs the job.

export const deliveryQueueName = QueueName.WebhookDelivery;
export const firstAttemptsQueueName = QueueName.WebhookFirstAttempts;

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

// The first attempts of deliveries planned together, in one job of their own
// queue: one job's cost in Redis and in the dispatcher for many deliveries.
// The dispatcher sends them at once, and hands each delivery whose first
// attempt did not succeed to a job of its own on the delivery queue (a
// DeliveryJob, with the id `planned`), which owns its retries from then on.
// Their own queue, so that a dispatcher takes few of them at once, and one
// that does not know them never takes one.
export const firstAttemptsJobName = 'first-attempts';
export const firstAttemptsPerJob = 20;

export const plannedDeliverySchema = z.object({
  deliveryId: z.string().min(1),
  eventId: z.string().min(1),
  webhookId: z.string().min(1),
  requestId: z.string().max(200).optional(),
});
export type PlannedDeliveryItem = z.output<typeof plannedDeliverySchema>;

export const firstAttemptsJobSchema = z.object({
  deliveries: z.array(plannedDeliverySchema).min(1).max(firstAttemptsPerJob),
});
export type FirstAttemptsJob = z.output<typeof firstAttemptsJobSchema>;

// Deterministic ids: a delivery's own job is one per (event, webhook), so
// handing it over twice queues it once (BullMQ keeps one job per id), and a
// person's redelivery is one job per attempt count. First attempts planned
// again as the same set while its job waits are that job; in another set, or
// later, the dispatcher's start of a first attempt lets only one run send.
// BullMQ refuses ':' in custom job ids, hence the dashes.
export const deliveryJobId = {
  planned: (eventId: string, webhookId: string) => `${eventId}-${webhookId}`,
  redelivery: (deliveryId: string, attemptCount: number) => `redeliver-${deliveryId}-${attemptCount}`,
  firstAttempts: (deliveryIds: readonly string[]) =>
    `first-${createHash('sha256')
      .update([...deliveryIds].sort().join(' '))
      .digest('hex')
      .slice(0, 32)}`,
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

// A first-attempts job finishes once each of its deliveries succeeded, ended
// or went to its own job: nothing in it is needed afterwards, and a deletion
// finds nothing of its deliveries left in Redis.
function firstAttemptsJobOptions(jobId: string): JobsOptions {
  return { ...deliveryJobOptions(jobId), removeOnComplete: true };
}

// The producing side (webhooks service), and the dispatcher's hand-over.
export class DeliveryQueue {
  readonly queue: Queue<DeliveryJob>;
  readonly firstAttempts: Queue<FirstAttemptsJob>;

  constructor(private readonly connection: Redis) {
    // BullMQ's log of job events (added, completed, removed, with job ids),
    // which nothing here reads: kept short, so that a purge can look through
    // it whole (removeForDeliveries).
    const streams = { events: { maxLen: deliveryEventLogLength } };
    this.queue = new Queue<DeliveryJob>(deliveryQueueName, { connection, streams });
    this.firstAttempts = new Queue<FirstAttemptsJob>(firstAttemptsQueueName, { connection, streams });
  }

  // The first attempts of deliveries planned together, in jobs of at most
  // firstAttemptsPerJob, one round trip; a set already queued is kept as it is.
  async addPlanned(deliveries: readonly (PlannedDelivery & { requestId?: string })[]): Promise<void> {
    if (deliveries.length === 0) return;
    const jobs = [];
    for (let start = 0; start < deliveries.length; start += firstAttemptsPerJob) {
      const data: FirstAttemptsJob = {
        deliveries: deliveries.slice(start, start + firstAttemptsPerJob).map((delivery) => ({
          deliveryId: delivery.id,
          eventId: delivery.eventId,
          webhookId: delivery.webhookId,
          requestId: delivery.requestId,
        })),
      };
      const jobId = deliveryJobId.firstAttempts(data.deliveries.map((delivery) => delivery.deliveryId));
      jobs.push({ name: firstAttemptsJobName, data, opts: firstAttemptsJobOptions(jobId) });
    }
    await this.firstAttempts.addBulk(jobs);
  }

  // Deliveries whose first attempt did not succeed, each to a job of its own,
  // due after its wait; a delivery whose job exists already keeps that one.
  async handOver(
    deliveries: readonly (PlannedDeliveryItem & { delayMs: number; unrecorded?: UnrecordedAttempt })[],
  ): Promise<void> {
    if (deliveries.length === 0) return;
    await this.queue.addBulk(
      deliveries.map((delivery) => {
        const data: DeliveryJob = {
          deliveryId: delivery.deliveryId,
          requestId: delivery.requestId,
          unrecorded: delivery.unrecorded,
        };
        return {
          name: deliveryQueueName,
          data,
          opts: {
            ...deliveryJobOptions(deliveryJobId.planned(delivery.eventId, delivery.webhookId)),
            delay: delivery.delayMs,
          },
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

  // The jobs of deliveries about to be deleted (their form or response was):
  // each one's own job and every redelivery asked for, whatever their state
  // (waiting, delayed, finished), and the first-attempts jobs not yet run that
  // carry any of them. A job running now is locked and stays: the dispatcher
  // finds its delivery gone and ends it without sending.
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
    await this.dropFromFirstAttempts(new Set(deliveries.map((delivery) => delivery.id)));
    // A first-attempts job's id is a hash of its set: its log entries name no delivery.
    await this.forgetEvents(new Set(jobIds));
  }

  // First-attempts jobs not yet run (waiting, or delayed after a failed
  // hand-over) or failed for good that carry any of `gone`: each keeps its
  // other deliveries, or is removed when none is left. A job running now
  // keeps the data it took, and finds the deleted deliveries gone. This
  // queue holds only first-attempts jobs, which wait only while no
  // dispatcher runs: the lists read here are short.
  private async dropFromFirstAttempts(gone: ReadonlySet<string>): Promise<void> {
    const carrying = new Map<string, Job<FirstAttemptsJob>>();
    const page = 500;
    for (let start = 0; ; start += page) {
      const jobs = await this.firstAttempts.getJobs(
        ['waiting', 'prioritized', 'delayed', 'failed'],
        start,
        start + page - 1,
      );
      for (const job of jobs) {
        const parsed = firstAttemptsJobSchema.safeParse(job?.data);
        if (job?.id && parsed.success && parsed.data.deliveries.some((item) => gone.has(item.deliveryId)))
          carrying.set(job.id, job);
      }
      if (jobs.length < page) break;
    }
    for (const job of carrying.values()) {
      const kept = job.data.deliveries.filter((item) => !gone.has(item.deliveryId));
      if (kept.length > 0) await job.updateData({ deliveries: kept }).catch(() => undefined);
      else await job.remove().catch(() => undefined);
    }
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

  async close(): Promise<void> {
    await Promise.all([this.queue.close(), this.firstAttempts.close()]);
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

// The consuming side (dispatcher) of the delivery queue. `work` throws
// RetryDeliveryLater to be tried again, UnrecoverableError to stop.
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
    workerOptions(connection, options),
  );
}

// The consuming side of the first-attempts queue. `work` throws to be run
// again later (a hand-over failed).
export function createFirstAttemptsWorker(
  connection: Redis,
  work: (job: FirstAttemptsJob) => Promise<void>,
  options: DeliveryWorkerOptions,
): Worker<FirstAttemptsJob> {
  return new Worker<FirstAttemptsJob>(
    firstAttemptsQueueName,
    async (job) => {
      const parsed = firstAttemptsJobSchema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`not a first-attempts job: ${parsed.error.message}`);
      await work(parsed.data);
    },
    workerOptions(connection, options),
  );
}

function workerOptions(connection: Redis, options: DeliveryWorkerOptions): WorkerOptions {
  return {
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
  };
}
