import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { webhookSecretKeys } from '@formline/config';
import { createWebhooksDatabase, WebhooksPrismaClient } from '@formline/db';
import { Streams } from '@formline/contracts';
import { connectNats, connectRedis, FormDeletionConsumer, NATS_CONNECTION } from '@formline/messaging';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import { DeliveryQueue, DeliveryRepository, SecretBox } from '@formline/webhook-delivery';
import { Redis } from 'ioredis';
import { DeliveryLogService } from './delivery/delivery-log.service';
import { DeliveryPlanner } from './delivery/delivery.planner';
import { DeliveryRetentionJob } from './delivery/delivery-retention.job';
import { ResponseDeletionConsumer } from './response-deletion/response-deletion.consumer';
import { SubmissionConsumer } from './events/submission.consumer';
import { FormPurgeJob } from './purge/form-purge.job';
import { FormPurgeRepository } from './purge/form-purge.repository';
import { WebhookHandler } from './webhook.handler';
import { WebhookRepository } from './webhook/webhook.repository';
import { WebhookService } from './webhook/webhook.service';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '@formline/app-config';

// The webhooks service owns its region's webhook records and delivery log, and
// turns submission events from the region's JetStream into delivery jobs on the
// region's Redis, for the dispatcher to send; deleted responses' and forms'
// deliveries it deletes.
@Module({})
export class WebhooksModule implements OnApplicationShutdown {
  constructor(
    private readonly db: WebhooksPrismaClient,
    private readonly redis: Redis,
    private readonly queue: DeliveryQueue,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
  ) {}

  static forConfig(config: WebhooksConfig): DynamicModule {
    return {
      module: WebhooksModule,
      // The NATS handlers (Nest registers every class of handlers as a controller).
      controllers: [WebhookHandler],
      providers: [
        { provide: WEBHOOKS_CONFIG, useValue: config },
        {
          provide: WebhooksPrismaClient,
          useFactory: () => createWebhooksDatabase(config.WEBHOOKS_DATABASE_URL),
        },
        { provide: Redis, useFactory: () => connectRedis(config, `webhooks-${config.REGION}`) },
        {
          provide: DeliveryQueue,
          inject: [Redis],
          useFactory: (redis: Redis) => new DeliveryQueue(redis),
        },
        // Its own connection for JetStream, apart from the one serving requests.
        {
          provide: NATS_CONNECTION,
          useFactory: () => connectNats(config, `webhooks-${config.REGION}-client`),
        },
        { provide: SecretBox, useFactory: () => new SecretBox(webhookSecretKeys(config)) },
        { provide: OutboundUrlPolicy, useFactory: () => new OutboundUrlPolicy(config.WEBHOOK_ALLOWED_HOSTS) },
        {
          provide: DeliveryRepository,
          inject: [WebhooksPrismaClient],
          useFactory: (db: WebhooksPrismaClient) => new DeliveryRepository(db),
        },
        WebhookRepository,
        WebhookService,
        DeliveryPlanner,
        DeliveryRetentionJob,
        DeliveryLogService,
        SubmissionConsumer,
        ResponseDeletionConsumer,
        FormPurgeRepository,
        FormPurgeJob,
        // Form deletions of the region, recorded as purges (libs/messaging).
        {
          provide: FormDeletionConsumer,
          inject: [NATS_CONNECTION, FormPurgeRepository, FormPurgeJob],
          useFactory: (nats: NatsConnection, purges: FormPurgeRepository, job: FormPurgeJob) =>
            new FormDeletionConsumer(nats, Streams.forms.consumers.webhooks, purges.table, job.runner),
        },
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.nats.isClosed()) await this.nats.drain();
    await this.queue.close();
    await this.db.$disconnect();
    await this.redis.quit();
  }
}
