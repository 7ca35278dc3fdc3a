import { Logger } from '@nestjs/common';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import type { InFlightBudget } from './in-flight-budget';

export interface NatsResponderOptions {
  /** The service's queue group: its replicas share the requests. */
  queue: string;
  /** Requests (or a batch's calls) in work at once, the process's (processInFlightBudget) in a service. */
  budget: InFlightBudget;
}

// What the responders that serve outside Nest's transport share (byte replies,
// batches of calls): a subscription per subject in the service's queue group,
// the work under way counted, and a stop that takes no more requests and lets
// those in work answer (a rolling restart loses none), before the connection
// is drained.
export abstract class NatsResponder {
  protected readonly logger: Logger;
  private readonly subscriptions: Subscription[] = [];
  private readonly working = new Set<Promise<void>>();

  constructor(
    protected readonly connection: NatsConnection,
    protected readonly options: NatsResponderOptions,
    name: string,
  ) {
    this.logger = new Logger(name);
  }

  async stop(): Promise<void> {
    if (!this.connection.isClosed()) {
      await Promise.allSettled(this.subscriptions.map((subscription) => subscription.drain()));
    }
    await Promise.allSettled([...this.working]);
  }

  protected subscribe(subject: string, answer: (message: Msg) => Promise<void>): void {
    const subscription = this.connection.subscribe(subject, {
      queue: this.options.queue,
      callback: (error, message) => {
        if (error) return;
        // An answer's own failure is answered to its caller inside `answer`;
        // anything that escapes it is logged, never left to end the process.
        const work = answer(message).catch((unexpected: unknown) =>
          this.logger.error({ subject, unexpected: String(unexpected) }),
        );
        this.working.add(work);
        void work.finally(() => this.working.delete(work));
      },
    });
    this.subscriptions.push(subscription);
  }
}
