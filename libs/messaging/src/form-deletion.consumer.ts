import { Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { formDeletedEventSchema, Streams, Subjects } from '@formline/contracts';
import { DurableEventConsumer } from './durable-event.consumer';

/** Where a service records a deleted form's purge (its form_purges table). */
export interface FormPurgeRequests {
  request(purge: { formId: string; accountId: string; deletedAt: Date }): Promise<void>;
}

// A regional service's durable consumer of the region's form deletions (the
// FORMS stream, one consumer per service that holds form data): each is
// recorded as a purge before it is acknowledged, then the purge job is woken.
// A crash before the record makes JetStream send the deletion again; a
// deletion taken twice records one purge. Nest starts and stops it with the
// application (a provider made by a factory).
export class FormDeletionConsumer {
  private readonly consumer: DurableEventConsumer<typeof formDeletedEventSchema>;

  constructor(
    nats: NatsConnection,
    consumerName: string,
    purges: FormPurgeRequests,
    purgeJob: { runOnce(): Promise<void> },
  ) {
    this.consumer = new DurableEventConsumer(nats, {
      stream: Streams.forms,
      consumer: {
        name: consumerName,
        filterSubject: Subjects.formsFormDeleted,
        ackWaitMs: Streams.forms.consumerAckWaitMs,
      },
      schema: formDeletedEventSchema,
      handle: async (event) => {
        await purges.request({
          formId: event.form_id,
          accountId: event.account_id,
          deletedAt: new Date(event.deleted_at),
        });
        void purgeJob.runOnce();
      },
      log: new Logger('FormDeletionConsumer'),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.consumer.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.consumer.stop();
  }
}
