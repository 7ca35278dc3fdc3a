import type {
  LogGroupSettings,
  OpsGroupSettings,
  RegionGroupSettings,
  ShutdownGroupSettings,
} from '@formline/config';
import type { DynamicModule, INestMicroservice } from '@nestjs/common';
import { createLogger, type HealthCheck, OpsServer, startProcessMetrics, stopOnSignal } from '@formline/ops';
import { followConnection } from './microservice-status';
import type { NatsSettings } from './nats-options';
import { createNatsMicroservice } from './nats-microservice';

// What every NATS service reads besides NATS: the groups of libs/config that
// every app spreads into its schema.
export type NatsServiceConfig = NatsSettings &
  LogGroupSettings &
  OpsGroupSettings &
  ShutdownGroupSettings &
  Pick<RegionGroupSettings, 'REGION'>;

export interface NatsServiceOptions {
  service: string;
  queue: string;
  config: NatsServiceConfig;
  module: DynamicModule;
  /** What the service needs besides NATS to be ready (its database, Redis). */
  dependencies: (app: INestMicroservice) => HealthCheck[];
}

// The life of every NATS service: health endpoints first (live at once, ready
// once NATS and its dependencies answer), then the handlers, then on SIGTERM:
// not ready, stop taking requests, let in-flight ones finish, close, exit.
export async function runNatsService(options: NatsServiceOptions): Promise<void> {
  const { config, service } = options;
  const logger = createLogger(service, config);
  startProcessMetrics({ app: service, region: config.REGION });
  const app = await createNatsMicroservice(options.module, {
    name: `${service}-${config.REGION}`,
    queue: options.queue,
    nats: config,
    logger,
  });
  const ops = new OpsServer([{ name: 'nats', probe: followConnection(app) }, ...options.dependencies(app)]);
  await ops.listen(config.OPS_HOST, config.OPS_PORT);
  await app.listen();
  ops.markStarted();
  logger.log(
    `${service} (${config.REGION}) listening on NATS; health on ${config.OPS_HOST}:${config.OPS_PORT}`,
  );
  stopOnSignal(
    logger,
    async () => {
      ops.markShuttingDown();
      await app.close();
      await ops.close();
    },
    config.SHUTDOWN_TIMEOUT_MS,
  );
}
