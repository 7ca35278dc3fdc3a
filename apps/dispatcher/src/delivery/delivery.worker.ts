import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { QueueName } from '@formline/contracts';
import { runWithRequestId, setQueueDepth } from '@formline/ops';
import {
  createDeliveryWorker,
  type DeliveryJob,
  DeliveryQueue,
  type DeliveryWorkerOptions,
  RetryDeliveryLater,
  type UnrecordedAttempt,
} from '@formline/webhook-delivery';
import type { Job, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '@formline/app-config';
import { DeliveryAttempts } from './delivery.attempts';

// The worker of the delivery queue: a job is one delivery (after its first
// attempt, or a person's redelivery), and each run is one attempt
// (delivery.attempts.ts). BullMQ keeps the job's wait between attempts in
// Redis, so a dispatcher that dies loses nothing: its active jobs are taken
// over once their lock lapses. An outcome the database could not take waits
// with the job (its data, in Redis) until the database takes it.
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private worker?: Worker<DeliveryJob>;
  private depthTimer?: NodeJS.Timeout;

  constructor(
    private readonly attempts: DeliveryAttempts,
    private readonly redis: Redis,
    private readonly queue: DeliveryQueue,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = createDeliveryWorker(
      this.redis.duplicate(),
      // Each job runs under the request id of the submission that caused it.
      (job, bullJob) => runWithRequestId(job.requestId, () => this.deliver(job, bullJob)),
      workerSettings(this.config, this.config.DISPATCHER_CONCURRENCY),
    );
    this.worker.on('error', (error) => this.logger.warn(`delivery worker: ${String(error)}`));
    this.depthTimer = setInterval(() => void this.reportDepth(), 5000);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.depthTimer);
    await this.worker?.close();
  }

  // Both queues' jobs by state, for the queue-depth gauge.
  private async reportDepth(): Promise<void> {
    try {
      const states = ['waiting', 'active', 'delayed', 'failed'] as const;
      setQueueDepth(QueueName.WebhookDelivery, await this.queue.queue.getJobCounts(...states));
      setQueueDepth(QueueName.WebhookFirstAttempts, await this.queue.firstAttempts.getJobCounts(...states));
    } catch {
      // Redis away: the gauge keeps its last value until it answers again.
    }
  }

  async deliver(job: DeliveryJob, bullJob: Job<DeliveryJob>): Promise<void> {
    await this.attempts.run(job, {
      firstOnly: false,
      keep: (ended, error) => this.keepUnrecorded(bullJob, ended, error),
    });
  }

  // The database did not take an attempt's outcome: keep it with the job (in
  // Redis) and run the job again soon, to record it then. Only when Redis
  // refuses too is the outcome lost, and the delivery sent again.
  private async keepUnrecorded(
    bullJob: Job<DeliveryJob>,
    ended: UnrecordedAttempt,
    error: unknown,
  ): Promise<never> {
    const what = describeAttempt(bullJob.data.deliveryId, ended);
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
}

/** A worker's BullMQ settings from the dispatcher's: lock, stall checks, fallback wait. */
export function workerSettings(config: DispatcherConfig, concurrency: number): DeliveryWorkerOptions {
  return {
    concurrency,
    lockMs: config.DISPATCHER_LOCK_MS,
    stalledCheckMs: Math.max(1000, Math.floor(config.DISPATCHER_LOCK_MS / 2)),
    fallbackRetryMs: config.WEBHOOK_RETRY_SCHEDULE_MS[0],
  };
}

/** An attempt, for the log lines about its outcome. */
export function describeAttempt(deliveryId: string, ended: UnrecordedAttempt): string {
  return `attempt ${ended.attemptNumber} of delivery ${deliveryId} (${ended.outcome.ok ? `answered ${ended.outcome.statusCode}` : ended.outcome.message})`;
}
