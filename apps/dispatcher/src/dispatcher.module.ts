import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createWebhooksDatabase, WebhooksPrismaClient } from '@formline/db';
import { connectRedis } from '@formline/messaging';
import { Redis } from 'ioredis';
import type { DispatcherConfig } from './dispatcher.config';

// The dispatcher is the region's BullMQ worker that delivers webhook payloads
// and records every attempt. The delivery worker arrives with the webhooks
// issue; this module connects the process to its Redis and database.
@Module({})
export class DispatcherModule implements OnApplicationShutdown {
  constructor(
    @Inject(WebhooksPrismaClient) private readonly db: WebhooksPrismaClient,
    @Inject(Redis) private readonly redis: Redis,
  ) {}

  static forConfig(config: DispatcherConfig): DynamicModule {
    return {
      module: DispatcherModule,
      providers: [
        {
          provide: WebhooksPrismaClient,
          useFactory: () => createWebhooksDatabase(config.WEBHOOKS_DATABASE_URL),
        },
        { provide: Redis, useFactory: () => connectRedis(config.REDIS_URL, `dispatcher-${config.REGION}`) },
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.db.$disconnect();
    await this.redis.quit();
  }
}
