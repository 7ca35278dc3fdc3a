import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { stackIntakeSubject as subject } from '../lib/intake-transaction';

// The intake's floor on the product's stack, HTTP side: NestJS on Fastify
// taking the same POST, passing its body to the floor service over one NATS
// request/reply (NestJS's envelope, as RpcClient sends it) and answering 201.
// With stack-intake.service, the least the gateway + responses architecture
// does per submission.
interface Input {
  natsUrl: string;
}

const input = JSON.parse(process.argv[2]) as Input;
let nats: NatsConnection;

@Controller('forms')
class SubmissionsController {
  @Post(':form_id/submissions')
  @HttpCode(201)
  async submit(@Param('form_id') formId: string, @Body() body: unknown): Promise<unknown> {
    const request = JSON.stringify({ pattern: subject, data: { formId, body }, id: randomUUID() });
    const reply = (await nats.request(subject, request, { timeout: 5000 })).json<{
      response?: unknown;
      err?: unknown;
    }>();
    // A failed write answers 500, as the product's RpcClient would: never a 201 to count.
    if (reply.err !== undefined) throw new Error('the floor service failed');
    return reply.response;
  }
}

@Module({ controllers: [SubmissionsController] })
class FloorServerModule {}

async function main(): Promise<void> {
  nats = await connect({ servers: [input.natsUrl], noAsyncTraces: true });
  const app = await NestFactory.create<NestFastifyApplication>(FloorServerModule, new FastifyAdapter(), {
    logger: false,
  });
  await app.listen(0, '127.0.0.1');
  process.stdout.write(`ready ${JSON.stringify({ url: await app.getUrl() })}\n`);
  process.on('SIGTERM', () => void Promise.all([app.close(), nats.drain()]).then(() => process.exit(0)));
}

void main();
