import { type DynamicModule, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createWebhooksDatabase, WebhooksPrismaClient } from '@formline/db';
import { connectRedis } from '@formline/messaging';
import { webhookSecretKeys } from '@formline/config';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import { DeliveryQueue, DeliveryRepository, SecretBox } from '@formline/webhook-delivery';
import { Redis } from 'ioredis';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '@formline/app-config';
import { DeliveryAttempts } from './delivery/delivery.attempts';
import { DeliveryWorker } from './delivery/delivery.worker';
import { FirstAttemptsWorker } from './delivery/first-attempts.worker';

// The dispatcher is the region's BullMQ workers (first attempts, and each
// delivery's own job) that deliver webhook payloads and record every attempt
// in the region's webhooks database.
@Module({})
export class DispatcherModule implements OnApplicationShutdown {
  constructor(
    private readonly db: WebhooksPrismaClient,
    private readonly redis: Redis,
    private readonly queue: DeliveryQueue,
  ) {}

  static forConfig(config: DispatcherConfig): DynamicModule {
    return {
      module: DispatcherModule,
      providers: [
        { provide: DISPATCHER_CONFIG, useValue: config },
        {
          provide: WebhooksPrismaClient,
          useFactory: () => createWebhooksDatabase(config.WEBHOOKS_DATABASE_URL),
        },
        { provide: Redis, useFactory: () => connectRedis(config, `dispatcher-${config.REGION}`) },
        { provide: SecretBox, useFactory: () => new SecretBox(webhookSecretKeys(config)) },
        { provide: OutboundUrlPolicy, useFactory: () => new OutboundUrlPolicy(config.WEBHOOK_ALLOWED_HOSTS) },
        {
          provide: DeliveryRepository,
          inject: [WebhooksPrismaClient],
          useFactory: (db: WebhooksPrismaClient) => new DeliveryRepository(db),
        },
        // Both workers' one handle on the queues: depth, hand-over (its own connection).
        {
          provide: DeliveryQueue,
          inject: [Redis],
          useFactory: (redis: Redis) => new DeliveryQueue(redis.duplicate()),
        },
        DeliveryAttempts,
        DeliveryWorker,
        FirstAttemptsWorker,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.db.$disconnect();
    await this.redis.quit();
  }
}
