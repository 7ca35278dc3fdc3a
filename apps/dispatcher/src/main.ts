import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@formline/config';
import { WebhooksPrismaClient } from '@formline/db';
import { redisIsUp } from '@formline/messaging';
import {
  createLogger,
  exposePipelineMetrics,
  OpsServer,
  runMain,
  startProcessMetrics,
  stopOnSignal,
} from '@formline/ops';
import { Redis } from 'ioredis';
import { dispatcherConfigSchema } from '@formline/app-config';
import { DispatcherModule } from './dispatcher.module';

runMain(async () => {
  const config = loadConfig(dispatcherConfigSchema);
  const logger = createLogger('dispatcher', config);
  startProcessMetrics({ app: 'dispatcher', region: config.REGION });
  // Fed by the delivery worker: queue depth, attempts, latency.
  exposePipelineMetrics('queue', 'delivery');
  const app = await NestFactory.createApplicationContext(DispatcherModule.forConfig(config), { logger });
  const db = app.get(WebhooksPrismaClient);
  const redis = app.get(Redis);
  const ops = new OpsServer([
    { name: 'database', probe: () => db.$queryRaw`SELECT 1` },
    { name: 'redis', probe: () => redisIsUp(redis) },
  ]);
  await ops.listen(config.OPS_HOST, config.OPS_PORT);
  ops.markStarted();
  logger.log(`dispatcher (${config.REGION}) started; health on ${config.OPS_HOST}:${config.OPS_PORT}`);
  stopOnSignal(
    logger,
    async () => {
      ops.markShuttingDown();
      await app.close();
      await ops.close();
    },
    config.SHUTDOWN_TIMEOUT_MS,
  );
});
