import 'reflect-metadata';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, type MicroserviceOptions, Payload, Transport } from '@nestjs/microservices';
import { Pool } from 'pg';
import { stackIntakeSubject, writeSubmissionRows, type SubmissionRows } from '../lib/intake-transaction';

// The intake's floor on the product's stack, service side: a NestJS NATS
// microservice (the transport our services run on) answering each request
// with the raw baseline's transaction. No validation, no outbox relay, no
// logging: what a submission costs on this architecture before our own code.
interface Input extends SubmissionRows {
  databaseUrl: string;
  natsUrl: string;
}

const input = JSON.parse(process.argv[2]) as Input;
const pool = new Pool({ connectionString: input.databaseUrl, max: 10 });

@Controller()
class IntakeHandler {
  @MessagePattern(stackIntakeSubject)
  async write(@Payload() _body: unknown): Promise<{ id: string }> {
    return { id: await writeSubmissionRows(pool, input) };
  }
}

@Module({ controllers: [IntakeHandler] })
class FloorServiceModule {}

async function main(): Promise<void> {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(FloorServiceModule, {
    transport: Transport.NATS,
    options: { servers: [input.natsUrl], queue: 'bench-stack-intake' },
    logger: false,
  });
  await app.listen();
  process.stdout.write('ready {}\n');
  process.on('SIGTERM', () => void Promise.all([app.close(), pool.end()]).then(() => process.exit(0)));
}

void main();
