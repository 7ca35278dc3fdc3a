import { createHash } from 'node:crypto';
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

// The first attempts of deliveries planned together, in one job: one job's
// cost in Redis and in the dispatcher for many deliveries. The dispatcher
// sends them at once, and hands each delivery whose first attempt did not
// succeed to a job of its own (a DeliveryJob, with the id `planned`), which
// owns its retries from then on.
export const firstAttemptsJobName = 'first-attempts';
export const firstAttemptsPerJob = 50;

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

/** What a job of the queue carries: one delivery, or the first attempts of several. */
export type QueuedDeliveryWork = DeliveryJob | FirstAttemptsJob;

// Deterministic ids: a delivery's own job is one per (event, webhook), so
// handing it over twice queues it once (BullMQ keeps one job per id), and a
// person's redelivery is one job per attempt count. First attempts planned
// again as the same set (an event consumed twice) are one job too; in another
// set, the dispatcher's start of a first attempt lets only one run send.
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
    /** An outcome the database did not take, for the run that records it. */
    readonly unrecorded?: UnrecordedAttempt,
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
// or went to its own job: nothing in it is needed afterwards.
function firstAttemptsJobOptions(jobId: string): JobsOptions {
  return { ...deliveryJobOptions(jobId), removeOnComplete: true };
}

// The producing side (webhooks service).
export class DeliveryQueue {
  readonly queue: Queue<QueuedDeliveryWork>;

  constructor(private readonly connection: Redis) {
    this.queue = new Queue<QueuedDeliveryWork>(deliveryQueueName, {
      connection,
      // BullMQ's log of job events (added, completed, removed, with job ids),
      // which nothing here reads: kept short, so that a purge can look
      // through it whole (removeForDeliveries).
      streams: { events: { maxLen: deliveryEventLogLength } },
    });
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
    await this.queue.addBulk(jobs);
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
    const firstAttempts = await this.dropFromFirstAttempts(
      new Set(deliveries.map((delivery) => delivery.id)),
    );
    await this.forgetEvents(new Set([...jobIds, ...firstAttempts]));
  }

  // First-attempts jobs not yet run (or failed) that carry any of `gone`:
  // their other deliveries are handed to their own jobs (due now), then the
  // job is removed; in that order, so that no delivery is left without a job
  // if the removal fails (the job started meanwhile: it is locked, and the
  // first attempt of each delivery is made once either way). Answers the ids
  // of the jobs it removed. Such jobs wait only while no dispatcher runs, so
  // the lists read here are short.
  private async dropFromFirstAttempts(gone: ReadonlySet<string>): Promise<string[]> {
    const carrying: Job<FirstAttemptsJob>[] = [];
    const page = 500;
    for (let start = 0; ; start += page) {
      const jobs = await this.queue.getJobs(
        ['waiting', 'delayed', 'prioritized', 'failed'],
        start,
        start + page - 1,
      );
      for (const job of jobs) {
        if (job?.name !== firstAttemptsJobName) continue;
        const parsed = firstAttemptsJobSchema.safeParse(job.data);
        if (parsed.success && parsed.data.deliveries.some((item) => gone.has(item.deliveryId)))
          carrying.push(job as Job<FirstAttemptsJob>);
      }
      if (jobs.length < page) break;
    }
    const removed: string[] = [];
    for (const job of carrying) {
      const kept = job.data.deliveries.filter((item) => !gone.has(item.deliveryId));
      await this.handOver(kept.map((item) => ({ ...item, delayMs: 0 })));
      if (
        await job.remove().then(
          () => true,
          () => false,
        )
      )
        removed.push(job.id!);
    }
    return removed;
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

// The consuming side (dispatcher): `work` runs a delivery's job,
// `workFirstAttempts` a first-attempts job. Each throws RetryDeliveryLater to
// be tried again, UnrecoverableError to stop.
export function createDeliveryWorker(
  connection: Redis,
  work: {
    delivery: (job: DeliveryJob, bullJob: Job<DeliveryJob>) => Promise<void>;
    firstAttempts: (job: FirstAttemptsJob) => Promise<void>;
  },
  options: DeliveryWorkerOptions,
): Worker<QueuedDeliveryWork> {
  return new Worker<QueuedDeliveryWork>(
    deliveryQueueName,
    async (job) => {
      if (job.name === firstAttemptsJobName) {
        const parsed = firstAttemptsJobSchema.safeParse(job.data);
        if (!parsed.success)
          throw new UnrecoverableError(`not a first-attempts job: ${parsed.error.message}`);
        return work.firstAttempts(parsed.data);
      }
      const parsed = deliveryJobSchema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`not a delivery job: ${parsed.error.message}`);
      await work.delivery(parsed.data, job as Job<DeliveryJob>);
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
