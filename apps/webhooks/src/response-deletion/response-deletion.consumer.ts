import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { responsesDeletedEventSchema, Streams, Subjects } from '@formline/contracts';
import { DurableEventConsumer, NATS_CONNECTION } from '@formline/messaging';
import { DeliveryQueue, DeliveryRepository } from '@formline/webhook-delivery';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '@formline/app-config';

// Taking one event is a few statements on at most a thousand responses: a
// consumer that holds one this long has died, and JetStream sends it again.
const ackWaitMs = 30_000;

// Responses deleted in the region, by their owner or by a right-to-be-
// forgotten job (the responses service's deletion events, on the RESPONSES
// stream, one durable consumer shared by the replicas): each is recorded so
// that no delivery is planned for them any more, and their deliveries, with
// their attempts and queued jobs, are deleted (DeliveryRepository.forgetResponses),
// before the event is acknowledged. A crash before that makes JetStream send
// it again; taking it twice deletes nothing more.
@Injectable()
export class ResponseDeletionConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly consumer: DurableEventConsumer<typeof responsesDeletedEventSchema>;

  constructor(
    @Inject(NATS_CONNECTION) nats: NatsConnection,
    deliveries: DeliveryRepository,
    queue: DeliveryQueue,
    @Inject(WEBHOOKS_CONFIG) config: WebhooksConfig,
  ) {
    this.consumer = new DurableEventConsumer(nats, {
      stream: { ...Streams.responses, maxAgeMs: config.RESPONSES_STREAM_MAX_AGE_MS },
      consumer: {
        name: Streams.responses.consumers.webhooksDeletions,
        filterSubject: Subjects.responsesResponsesDeleted,
        ackWaitMs,
      },
      schema: responsesDeletedEventSchema,
      handle: async (event) => {
        await deliveries.forgetResponses(event.account_id, event.response_tokens, (rows) =>
          queue.removeForDeliveries(rows),
        );
      },
      log: new Logger('ResponseDeletionConsumer'),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.consumer.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.consumer.stop();
  }
}
