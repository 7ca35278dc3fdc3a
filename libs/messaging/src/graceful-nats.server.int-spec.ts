import { randomUUID } from 'node:crypto';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { testInfra } from '@formline/testing';
import { connectNats } from './nats-connection';
import { createNatsMicroservice } from './nats-microservice';

// A service closing (SIGTERM) against the test profile's NATS: a request in
// work when the close begins still gets its reply, the connection closes as
// soon as it has, and a service with nothing in work closes at once rather
// than after its grace period.
const subject = `test.graceful.${randomUUID()}`;
let release: () => void = () => undefined;
let started: () => void = () => undefined;

@Controller()
class SlowController {
  @MessagePattern(subject)
  async answer(): Promise<{ done: true }> {
    started();
    await new Promise<void>((resolve) => (release = resolve));
    return { done: true };
  }
}

@Module({ controllers: [SlowController] })
class SlowModule {}

const graceMs = 20_000;
const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };
const settings = { NATS_URL: testInfra().natsUrl.us, NATS_RECONNECT_WAIT_MS: 100 };

async function startService(): Promise<INestMicroservice> {
  const app = await createNatsMicroservice(
    { module: SlowModule },
    {
      name: 'graceful-spec',
      queue: `graceful-${randomUUID()}`,
      nats: settings,
      logger: silent,
      shutdownGraceMs: graceMs,
    },
  );
  await app.listen();
  return app;
}

describe('a NATS service closing', () => {
  let caller: NatsConnection;
  beforeAll(async () => (caller = await connectNats(settings, 'graceful-caller')));
  afterAll(() => caller.close());

  it('replies to the request in work, then closes without waiting out the grace period', async () => {
    const app = await startService();
    const inWork = new Promise<void>((resolve) => (started = resolve));
    const reply = caller.request(subject, JSON.stringify({ pattern: subject, data: {}, id: '1' }), {
      timeout: graceMs,
    });
    await inWork;
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed).toBe(false);
    const releasedAt = Date.now();
    release();
    expect((await reply).json()).toMatchObject({ response: { done: true } });
    await closing;
    expect(Date.now() - releasedAt).toBeLessThan(graceMs / 2);
  });

  it('closes at once with nothing in work', async () => {
    const app = await startService();
    const closeStarted = Date.now();
    await app.close();
    expect(Date.now() - closeStarted).toBeLessThan(graceMs / 2);
  });
});
