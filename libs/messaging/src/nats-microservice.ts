import type { DynamicModule, INestApplication, INestMicroservice, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions, NestMicroservice } from '@nestjs/microservices';
import { GracefulNatsServer } from './graceful-nats.server';
import { processInFlightBudget } from './in-flight-budget';
import { InFlightLimitInterceptor } from './in-flight-limit.interceptor';
import { natsConnectionOptions, type NatsSettings } from './nats-options';
import { RequestContextInterceptor } from './request-context.interceptor';
import { ReplySizeInterceptor } from './reply-size.interceptor';
import { RpcErrorFilter } from './rpc-error.filter';

const defaultMaxInFlight = 256;
const defaultShutdownGraceMs = 2000;

export interface NatsMicroserviceOptions {
  name: string;
  queue: string;
  nats: NatsSettings;
  logger: LoggerService;
  /** How long in-flight requests get to finish after a SIGTERM. */
  shutdownGraceMs?: number;
}

// Boots a NestJS NATS microservice the way every service of ours runs: one
// queue group per service (replicas share the work), reconnecting to NATS
// forever, errors sent back as error bodies, each request under its caller's
// request id, closed once the requests in work are done (within a grace period), and at
// most NATS_MAX_IN_FLIGHT requests in work at once (more are answered 503).
export async function createNatsMicroservice(
  module: DynamicModule,
  options: NatsMicroserviceOptions,
): Promise<INestMicroservice> {
  const limit = inFlightLimit(options);
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(module, {
    strategy: natsServer(options, limit),
    logger: options.logger,
  });
  return equip(app, limit);
}

// The same NATS handlers beside an HTTP app (a hybrid app: the media app
// serves the gateway over HTTP and the responses service over NATS). Its own
// application config, so the HTTP app's global filter never sees an RPC
// error; started by the app's startAllMicroservices().
//
// Nest binds a handler's filters and interceptors when it registers the
// handler's listener, reading the global ones then; connectMicroservice
// registers the listeners at once unless told to defer, so enhancers added
// after it never reach a handler (Nest warns, and the handlers ran without the
// error filter and the in-flight limit). Deferred, the registration would come
// with listen(), which (in @nestjs/microservices 12) also runs every module's
// init hooks a second time on the shared container; so the connection is
// deferred, the enhancers registered, and then the listeners registered here
// as Nest does for a connection it does not defer.
export function connectNatsMicroservice(
  app: INestApplication,
  options: Omit<NatsMicroserviceOptions, 'logger'>,
): INestMicroservice {
  const limit = inFlightLimit(options);
  const microservice = app.connectMicroservice<MicroserviceOptions>(
    { strategy: natsServer(options, limit) },
    { inheritAppConfig: false, deferInitialization: true },
  ) as NestMicroservice;
  equip(microservice, limit);
  microservice.registerListeners();
  // The hybrid app owns the shared container and runs its lifecycle hooks.
  microservice.setIsInitialized(true);
  microservice.setIsInitHookCalled(true);
  return microservice;
}

function inFlightLimit(options: Omit<NatsMicroserviceOptions, 'logger'>): InFlightLimitInterceptor {
  return new InFlightLimitInterceptor(
    processInFlightBudget(options.nats.NATS_MAX_IN_FLIGHT ?? defaultMaxInFlight),
  );
}

function natsServer(
  options: Omit<NatsMicroserviceOptions, 'logger'>,
  limit: InFlightLimitInterceptor,
): GracefulNatsServer {
  return new GracefulNatsServer(
    {
      ...natsConnectionOptions(options.nats),
      name: options.name,
      queue: options.queue,
      waitOnFirstConnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: options.nats.NATS_RECONNECT_WAIT_MS,
    },
    () => limit.inFlight(),
    options.shutdownGraceMs ?? defaultShutdownGraceMs,
  );
}

function equip(app: INestMicroservice, limit: InFlightLimitInterceptor): INestMicroservice {
  app.useGlobalFilters(new RpcErrorFilter());
  app.useGlobalInterceptors(new RequestContextInterceptor(), limit, new ReplySizeInterceptor());
  return app;
}
