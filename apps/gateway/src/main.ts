import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@formline/config';
import { RpcClient } from '@formline/messaging';
import { createLogger, OpsServer, runMain, stopOnSignal } from '@formline/ops';
import { gatewayConfigSchema } from './gateway.config';
import { GatewayModule } from './gateway.module';

async function main(): Promise<void> {
  const config = loadConfig(gatewayConfigSchema);
  const logger = createLogger('gateway', config);
  const ops = new OpsServer([]);
  // Live before NATS answers, so a slow bus never gets the pod killed.
  await ops.listen(config.OPS_HOST, config.OPS_PORT);
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forConfig(config),
    new FastifyAdapter(),
    {
      logger,
    },
  );
  const rpc = app.get(RpcClient);
  ops.setChecks([{ name: 'nats', probe: () => rpc.isConnected() }]);
  await app.listen(config.HTTP_PORT, config.HTTP_HOST);
  ops.markStarted();
  logger.log(`gateway (${config.REGION}) on http://${config.HTTP_HOST}:${config.HTTP_PORT}`);
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

runMain(main);
