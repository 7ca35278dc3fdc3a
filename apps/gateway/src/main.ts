import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, regionBaseUrls } from '@formline/config';
import { RpcClient } from '@formline/messaging';
import { createLogger, OpsServer, runMain, startProcessMetrics, stopOnSignal } from '@formline/ops';
import { gatewayConfigSchema } from './gateway.config';
import { GatewayModule } from './gateway.module';
import { observeHttpRequests } from './http/http-observability';
import { apiVersion, buildOpenApiDocument } from './openapi/openapi.document';
import { collectServedRoutes, controllersOf, serveOpenApi, undocumentedRoutes } from './openapi/openapi.http';
import { describeRoutes } from './openapi/openapi.routes';
import { allowPageSubmissions } from './respondent-page/submission-cors';

async function main(): Promise<void> {
  const config = loadConfig(gatewayConfigSchema);
  const logger = createLogger('gateway', config);
  startProcessMetrics({ app: 'gateway', region: config.REGION });
  const ops = new OpsServer([]);
  // Live before NATS answers, so a slow bus never gets the pod killed.
  await ops.listen(config.OPS_HOST, config.OPS_PORT);
  const adapter = new FastifyAdapter();
  observeHttpRequests(adapter.getInstance(), logger);
  const served = collectServedRoutes(adapter.getInstance());
  allowPageSubmissions(adapter.getInstance(), Object.values(regionBaseUrls(config)));
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forConfig(config), adapter, {
    logger,
  });
  const baseUrls = regionBaseUrls(config);
  const document = buildOpenApiDocument(describeRoutes(controllersOf(app)), {
    version: apiVersion,
    servers: [
      { url: baseUrls.us, description: 'Region us, the default region ({base_url})' },
      { url: baseUrls.eu, description: 'Region eu ({eu_base_url})' },
    ],
  });
  serveOpenApi(adapter.getInstance(), document);
  await app.init();
  // A route missing from /openapi.json is a bug to fix, not to ship.
  const undocumented = undocumentedRoutes(served, document);
  if (undocumented.length > 0)
    throw new Error(`Routes missing from the API document: ${undocumented.join(', ')}`);
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
