import type { DynamicModule, INestApplication, INestMicroservice, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions, Transport } from '@nestjs/microservices';
import { InFlightLimitInterceptor } from './in-flight-limit.interceptor';
import { natsConnectionOptions, type NatsSettings } from './nats-options';
import { RequestContextInterceptor } from './request-context.interceptor';
import { ReplySizeInterceptor } from './reply-size.interceptor';
import { RpcErrorFilter } from './rpc-error.filter';

const defaultMaxInFlight = 256;

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
// request id, with a grace period for in-flight requests when closed, and at
// most NATS_MAX_IN_FLIGHT requests in work at once (more are answered 503).
export async function createNatsMicroservice(
  module: DynamicModule,
  options: NatsMicroserviceOptions,
): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(module, {
    ...natsMicroserviceOptions(options),
    logger: options.logger,
  });
  return equip(app, options);
}

// The same NATS handlers beside an HTTP app (a hybrid app: the media app
// serves the gateway over HTTP and the responses service over NATS). Its own
// application config, so the HTTP app's global filter never sees an RPC
// error; started by the app's startAllMicroservices().
export function connectNatsMicroservice(
  app: INestApplication,
  options: Omit<NatsMicroserviceOptions, 'logger'>,
): INestMicroservice {
  return equip(
    app.connectMicroservice<MicroserviceOptions>(natsMicroserviceOptions(options), {
      inheritAppConfig: false,
    }),
    options,
  );
}

function natsMicroserviceOptions(options: Omit<NatsMicroserviceOptions, 'logger'>): MicroserviceOptions {
  return {
    transport: Transport.NATS,
    options: {
      ...natsConnectionOptions(options.nats),
      name: options.name,
      queue: options.queue,
      waitOnFirstConnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: options.nats.NATS_RECONNECT_WAIT_MS,
      gracefulShutdown: true,
      gracePeriod: options.shutdownGraceMs ?? 2000,
    },
  };
}

function equip(app: INestMicroservice, options: Omit<NatsMicroserviceOptions, 'logger'>): INestMicroservice {
  app.useGlobalFilters(new RpcErrorFilter());
  app.useGlobalInterceptors(
    new RequestContextInterceptor(),
    new InFlightLimitInterceptor(options.nats.NATS_MAX_IN_FLIGHT ?? defaultMaxInFlight),
    new ReplySizeInterceptor(),
  );
  return app;
}
