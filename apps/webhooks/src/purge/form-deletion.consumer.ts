import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { formDeletedEventSchema, Streams, Subjects } from '@formline/contracts';
import { DurableEventConsumer, NATS_CONNECTION } from '@formline/messaging';
import { FormPurgeJob } from './form-purge.job';
import { FormPurgeRepository } from './form-purge.repository';

// Takes the region's form deletions (the FORMS stream, this service's durable
// consumer): each is recorded as a purge (form_purges) before it is
// acknowledged, then the purge job is woken. A crash before the record makes
// JetStream send the deletion again; a deletion taken twice records one purge.
@Injectable()
export class FormDeletionConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly consumer: DurableEventConsumer<typeof formDeletedEventSchema>;

  constructor(@Inject(NATS_CONNECTION) nats: NatsConnection, purges: FormPurgeRepository, job: FormPurgeJob) {
    this.consumer = new DurableEventConsumer(nats, {
      stream: Streams.forms,
      consumer: {
        name: Streams.forms.consumers.webhooks,
        filterSubject: Subjects.formsFormDeleted,
        ackWaitMs: Streams.forms.consumerAckWaitMs,
      },
      schema: formDeletedEventSchema,
      handle: async (event) => {
        await purges.table.request({
          formId: event.form_id,
          accountId: event.account_id,
          deletedAt: new Date(event.deleted_at),
        });
        void job.runner.runOnce();
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
