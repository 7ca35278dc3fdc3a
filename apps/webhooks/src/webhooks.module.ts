import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { connectRedis } from '@formline/messaging';
import { createWebhooksDatabase, WebhooksPrismaClient } from '@formline/db';
import { Redis } from 'ioredis';
import type { WebhooksConfig } from './webhooks.config';

// The webhooks service owns its region's webhook records, and turns submission
// events into delivery jobs on the region's Redis. The API and the event
// consumer arrive with the webhooks issue; this module connects the service to
// its database, Redis and NATS.
@Module({})
export class WebhooksModule implements OnApplicationShutdown {
  constructor(
    @Inject(WebhooksPrismaClient) private readonly db: WebhooksPrismaClient,
    @Inject(Redis) private readonly redis: Redis,
  ) {}

  static forConfig(config: WebhooksConfig): DynamicModule {
    return {
      module: WebhooksModule,
      providers: [
        {
          provide: WebhooksPrismaClient,
          useFactory: () => createWebhooksDatabase(config.WEBHOOKS_DATABASE_URL),
        },
        { provide: Redis, useFactory: () => connectRedis(config.REDIS_URL, `webhooks-${config.REGION}`) },
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.db.$disconnect();
    await this.redis.quit();
  }
}
