import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, regionBaseUrls } from '@formline/config';
import { RpcClient } from '@formline/messaging';
import { createLogger, OpsServer, runMain, startProcessMetrics } from '@formline/ops';
import { gatewayConfigSchema } from '@formline/app-config';
import {
  AccessGate,
  AccessGuard,
  observeHttpRequests,
  installSecurityHeaders,
  installLoadShedding,
  LoadShedder,
  answerClientError,
  edgeFastifyAdapter,
  installRequestHygiene,
  parseJsonBodies,
  serveUntilSignal,
  apiVersion,
  buildOpenApiDocument,
  collectServedRoutes,
  controllersOf,
  serveOpenApi,
  undocumentedRoutes,
  describeRoutes,
  RateLimiter,
  allowLargerBodies,
  streamRawBodies,
  keepSocketsOfEarlyRefusals,
  answerIdleSockets,
  serverTimeoutOptions,
} from '@formline/http-edge';
import { GatewayModule } from './gateway.module';

async function main(): Promise<void> {
  const config = loadConfig(gatewayConfigSchema);
  const logger = createLogger('gateway', config);
  startProcessMetrics({ app: 'gateway', region: config.REGION });
  const ops = new OpsServer([]);
  // Live before NATS answers, so a slow bus never gets the pod killed.
  await ops.listen(config.OPS_HOST, config.OPS_PORT);
  // X-Forwarded-For is believed only from the configured proxies (request.ip).
  const adapter = edgeFastifyAdapter({
    trustProxy: config.TRUSTED_PROXIES.length ? config.TRUSTED_PROXIES : false,
    clientErrorHandler: answerClientError,
    ...serverTimeoutOptions({
      headersMs: config.GATEWAY_HEADERS_TIMEOUT_MS,
      requestMs: config.GATEWAY_REQUEST_TIMEOUT_MS,
      idleMs: config.GATEWAY_IDLE_TIMEOUT_MS,
      keepAliveMs: config.GATEWAY_KEEP_ALIVE_TIMEOUT_MS,
    }),
  });
  answerIdleSockets(adapter.getInstance().server);
  observeHttpRequests(adapter.getInstance(), logger);
  installSecurityHeaders(adapter.getInstance(), {
    https: regionBaseUrls(config)[config.REGION].startsWith('https:'),
  });
  const shedder = new LoadShedder({
    maxInFlight: config.GATEWAY_MAX_IN_FLIGHT,
    maxEventLoopDelayMs: config.GATEWAY_MAX_EVENT_LOOP_DELAY_MS,
  });
  installLoadShedding(adapter.getInstance(), shedder);
  const accessGate = new AccessGate();
  accessGate.install(adapter.getInstance());
  installRequestHygiene(adapter.getInstance());
  keepSocketsOfEarlyRefusals(adapter.getInstance());
  // An image travels as base64: 4 characters for every 3 bytes, and a little JSON around it.
  allowLargerBodies(adapter.getInstance(), [
    { method: 'POST', url: '/images', bytes: Math.ceil(config.IMAGE_MAX_BYTES / 3) * 4 + 64 * 1024 },
  ]);
  // Respondents' files arrive as raw bytes, left unread for their route to
  // stream to the media app (their size was checked from Content-Length at
  // the access gate); every other route refuses a body that is not JSON.
  streamRawBodies(adapter.getInstance(), [{ method: 'POST', url: '/forms/:form_id/files/:field_id' }]);
  const served = collectServedRoutes(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forConfig(config), adapter, {
    logger,
  });
  const baseUrls = regionBaseUrls(config);
  const routes = describeRoutes(controllersOf(app));
  const document = buildOpenApiDocument(routes, {
    version: apiVersion,
    servers: [
      { url: baseUrls.us, description: 'Region us, the default region ({base_url})' },
      { url: baseUrls.eu, description: 'Region eu ({eu_base_url})' },
    ],
  });
  serveOpenApi(adapter.getInstance(), document, { region: config.REGION, demoFormId: config.DEMO_FORM_ID });
  parseJsonBodies(app);
  await app.init();
  accessGate.bind(app.get(AccessGuard), served, routes);
  // A route missing from /openapi.json is a bug to fix, not to ship.
  const undocumented = undocumentedRoutes(served, document);
  if (undocumented.length > 0)
    throw new Error(`Routes missing from the API document: ${undocumented.join(', ')}`);
  const rpc = app.get(RpcClient);
  const limiter = app.get(RateLimiter);
  // Without Redis the gateway still serves (limits counted per replica): readiness names it, degraded.
  ops.setChecks([
    { name: 'nats', probe: () => rpc.isConnected() },
    { name: 'redis', probe: () => limiter.isShared(), degradesOnly: true },
  ]);
  await serveUntilSignal({ name: 'gateway', app, ops, logger, config });
}

runMain(main);
