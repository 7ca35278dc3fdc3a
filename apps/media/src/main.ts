import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@formline/config';
import { followConnection, RpcClient } from '@formline/messaging';
import { createLogger, lowerCpuPriority, OpsServer, runMain, startProcessMetrics } from '@formline/ops';
import { mediaConfigSchema } from '@formline/app-config';
import {
  observeHttpRequests,
  installLoadShedding,
  LoadShedder,
  allowLargerBodies,
  collectServedRoutes,
  streamRawBodies,
  edgeFastifyAdapter,
  forwardingKey,
  parseJsonBodies,
  requireGatewaySignature,
  serveUntilSignal,
} from '@formline/http-edge';
import { connectMediaHandlers } from './media-handlers';
import { MediaModule } from './media.module';
import { imageWorkRoutes } from './images/images.controller';
import { exposeImageWorkMetrics } from './images/image-work.metrics';
import { RenderPool } from './images/render.pool';

// The media app: the image routes, forwarded by the gateway once it has let
// a request in (access, rate limits, request hygiene and time limits are the
// gateway's), and respondents' files, streamed by the gateway. Its own HTTP
// port is reachable inside the region only. It also serves the deletes of
// respondents' files over NATS (the responses service's), in its queue group.
async function main(): Promise<void> {
  const config = loadConfig(mediaConfigSchema);
  // First, before libuv's pool and sharp's workers start: they take the
  // priority of the thread that starts them. A render keeps a core busy for a
  // second or more; on a host shared with the gateway and the services, the
  // API's callers come first (docs/decisions/images-and-files.md).
  lowerCpuPriority(config.MEDIA_NICE);
  const logger = createLogger('media', config);
  startProcessMetrics({ app: 'media', region: config.REGION });
  const ops = new OpsServer([]);
  // Live before NATS answers, so a slow bus never gets the pod killed.
  await ops.listen(config.OPS_HOST, config.OPS_PORT);
  const adapter = edgeFastifyAdapter();
  observeHttpRequests(adapter.getInstance(), logger);
  // Only what the region's gateway signed gets in, before anything else of it is read.
  requireGatewaySignature(adapter.getInstance(), forwardingKey(config.MEDIA_FORWARDING_KEY));
  // Only the render pool's bound sheds here: the gateway bounds requests in flight.
  const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 0 });
  installLoadShedding(adapter.getInstance(), shedder);
  // An image travels as base64: 4 characters for every 3 bytes, and a little JSON around it.
  allowLargerBodies(adapter.getInstance(), [
    { method: 'POST', url: '/images', bytes: Math.ceil(config.IMAGE_MAX_BYTES / 3) * 4 + 64 * 1024 },
  ]);
  // A respondent's file is streamed to the store as it arrives (its route checks its Content-Length).
  streamRawBodies(adapter.getInstance(), [{ method: 'POST', url: '/respondent-files/:form_id/:field_id' }]);
  const served = collectServedRoutes(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(MediaModule.forConfig(config), adapter, {
    logger,
  });
  parseJsonBodies(app);
  const nats = connectMediaHandlers(app, config);
  await app.init();
  // Image work waits in its own pool: while the pool is full, the routes that
  // would queue there are shed before any of their work.
  const renderPool = app.get(RenderPool);
  const unserved = imageWorkRoutes.filter(
    (route) => !served.some(({ method, url }) => `${method.toUpperCase()} ${url}` === route),
  );
  if (unserved.length > 0)
    throw new Error(`Image routes watched for shedding are not served: ${unserved.join(', ')}`);
  shedder.watch({ routes: imageWorkRoutes, saturation: () => renderPool.saturation() });
  exposeImageWorkMetrics(renderPool);
  const rpc = app.get(RpcClient);
  const handlersConnected = followConnection(nats);
  ops.setChecks([{ name: 'nats', probe: () => rpc.isConnected() && handlersConnected() }]);
  await app.startAllMicroservices();
  await serveUntilSignal({ name: 'media', app, ops, logger, config, onStop: () => shedder.stop() });
}

runMain(main);
