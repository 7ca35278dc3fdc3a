import { randomUUID } from 'node:crypto';
import {
  Controller,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { testInfra } from '@formline/testing';
import { connectNatsMicroservice } from './nats-microservice';

// NATS handlers connected to an HTTP app (connectNatsMicroservice) against
// the test profile's NATS: the app's modules go through their lifecycle
// hooks once, not once more when the handlers start listening (which a
// deferred connection left to Nest does), and Nest warns of nothing.
// Media's own spec (apps/media) proves what the handlers are given.
const subject = `test.hybrid.${randomUUID()}`;
const calls: string[] = [];

@Injectable()
class Lifecycle implements OnModuleInit, OnApplicationBootstrap {
  onModuleInit(): void {
    calls.push('init');
  }
  onApplicationBootstrap(): void {
    calls.push('bootstrap');
  }
}

@Controller()
class EchoController {
  @MessagePattern(subject)
  echo(): { ok: true } {
    return { ok: true };
  }
}

@Module({ providers: [Lifecycle], controllers: [EchoController] })
class HybridModule {}

it("runs the app's lifecycle hooks once, and Nest warns of nothing", async () => {
  const warnings: string[] = [];
  const app = await NestFactory.create(HybridModule, new FastifyAdapter(), {
    logger: {
      log: () => undefined,
      warn: (message: unknown) => warnings.push(String(message)),
      error: () => undefined,
    },
  });
  try {
    connectNatsMicroservice(app, {
      name: 'hybrid-spec',
      queue: `hybrid-${randomUUID()}`,
      nats: { NATS_URL: testInfra().natsUrl.us, NATS_RECONNECT_WAIT_MS: 100 },
    });
    await app.init();
    await app.startAllMicroservices();
    expect(calls).toEqual(['init', 'bootstrap']);
    expect(warnings).toEqual([]);
  } finally {
    await app.close();
  }
});
