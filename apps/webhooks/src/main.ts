import 'reflect-metadata';
import { loadConfig } from '@formline/config';
import { QueueGroups } from '@formline/contracts';
import { WebhooksPrismaClient } from '@formline/db';
import { redisIsUp, runNatsService } from '@formline/messaging';
import { exposePipelineMetrics, runMain } from '@formline/ops';
import { Redis } from 'ioredis';
import { webhooksConfigSchema } from '@formline/app-config';
import { WebhooksModule } from './webhooks.module';

runMain(async () => {
  const config = loadConfig(webhooksConfigSchema);
  // Fed by the submission-event consumer.
  exposePipelineMetrics('stream');
  await runNatsService({
    service: 'webhooks',
    queue: QueueGroups.webhooks,
    config,
    module: WebhooksModule.forConfig(config),
    dependencies: (app) => [
      { name: 'database', probe: () => app.get(WebhooksPrismaClient).$queryRaw`SELECT 1` },
      { name: 'redis', probe: () => redisIsUp(app.get(Redis)) },
    ],
  });
});
