import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { runWithRequestId } from '@formline/ops';
import {
  createFirstAttemptsWorker,
  DeliveryQueue,
  type FirstAttemptsJob,
  firstAttemptsPerJob,
  type PlannedDeliveryItem,
  RetryDeliveryLater,
  type UnrecordedAttempt,
} from '@formline/webhook-delivery';
import { UnrecoverableError, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '@formline/app-config';
import { DeliveryAttempts } from './delivery.attempts';
import { describeAttempt, workerSettings } from './delivery.worker';

// Something done already for a delivery, by its own run: nothing more to do.
class HandedOver extends Error {}

// The worker of the first-attempts queue: a job is the deliveries the webhooks
// service planned together, and its run makes their first attempts at once
// (within the process's send slots, delivery.attempts.ts). A delivery whose
// first attempt did not succeed goes on in a job of its own on the delivery
// queue, handed over the moment its attempt ends, due after the wait its
// attempt chose (and carrying the outcome when the database did not take it).
// This worker takes few jobs at once (about DISPATCHER_CONCURRENCY
// deliveries, and one job more), so that a dispatcher does not claim more than
// it can send and leave the other replicas idle.
@Injectable()
export class FirstAttemptsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FirstAttemptsWorker');
  private worker?: Worker<FirstAttemptsJob>;

  constructor(
    private readonly attempts: DeliveryAttempts,
    private readonly redis: Redis,
    private readonly queue: DeliveryQueue,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = createFirstAttemptsWorker(
      this.redis.duplicate(),
      (job) => this.deliverFirstAttempts(job),
      workerSettings(this.config, Math.ceil(this.config.DISPATCHER_CONCURRENCY / firstAttemptsPerJob) + 1),
    );
    this.worker.on('error', (error) => this.logger.warn(`first-attempts worker: ${String(error)}`));
    // A job that stops for good leaves its deliveries pending with no job:
    // their ids in the log, to queue them again by hand.
    this.worker.on('failed', (job, error) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
        this.logger.error(
          `first-attempts job ${job.id} failed for good (${error.message}); deliveries without a job: ${(job.data.deliveries ?? []).map((item) => item.deliveryId).join(', ')}`,
        );
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }

  // Every delivery's first attempt at once. The job fails (and runs again
  // later) when a delivery could not be handed over (Redis away): its rerun
  // sends nothing attempted already, and hands over again.
  async deliverFirstAttempts(job: FirstAttemptsJob): Promise<void> {
    const outcomes = await Promise.allSettled(
      job.deliveries.map((item) => runWithRequestId(item.requestId, () => this.firstAttempt(item))),
    );
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async firstAttempt(item: PlannedDeliveryItem): Promise<void> {
    try {
      await this.attempts.run(
        { deliveryId: item.deliveryId, requestId: item.requestId },
        { firstOnly: true, keep: (ended, error) => this.handOverUnrecorded(item, ended, error) },
      );
    } catch (error) {
      if (error instanceof UnrecoverableError || error instanceof HandedOver) return;
      if (error instanceof RetryDeliveryLater) return this.handOver(item, error.delayMs);
      // It could not even begin (the database away, a secret that does not
      // open): its own job tries again after the schedule's first wait.
      this.logger.warn(`first attempt of delivery ${item.deliveryId} did not run: ${String(error)}`);
      return this.handOver(item, this.config.WEBHOOK_RETRY_SCHEDULE_MS[0]);
    }
  }

  private handOver(
    item: PlannedDeliveryItem,
    delayMs: number,
    unrecorded?: UnrecordedAttempt,
  ): Promise<void> {
    return this.queue.handOver([{ ...item, delayMs, unrecorded }]);
  }

  // The database did not take the outcome: the delivery goes on in its own
  // job at once, carrying the outcome for its next run to record without
  // sending. Only when Redis refuses too is the outcome lost (and the
  // delivery sent again, once its attempt's time in flight is over).
  private async handOverUnrecorded(
    item: PlannedDeliveryItem,
    ended: UnrecordedAttempt,
    error: unknown,
  ): Promise<never> {
    const what = describeAttempt(item.deliveryId, ended);
    try {
      await this.handOver(item, this.config.WEBHOOK_RETRY_SCHEDULE_MS[0], ended);
    } catch (redisError) {
      this.logger.error(
        `${what}: neither the database (${String(error)}) nor Redis (${String(redisError)}) took its outcome; it will be sent again`,
      );
      throw redisError;
    }
    this.logger.warn(`${what}: outcome kept in the queue until the database takes it: ${String(error)}`);
    throw new HandedOver();
  }
}
