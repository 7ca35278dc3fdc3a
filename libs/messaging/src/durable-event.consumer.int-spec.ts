import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { eventually, testInfra } from '@formline/testing';
import { z } from 'zod';
import { DurableEventConsumer } from './durable-event.consumer';
import { ensureStream, type StreamDefinition } from './jetstream';

// A durable consumer of one kind of event, one at a time, on a stream of the
// spec's own. nats.js's continuous pull asks again only as the handler takes
// what came (the request waits in the iterator), so a slow handler holds at
// most one pull (10 events): these are small, and taken one by one.
describe('DurableEventConsumer against the test profile’s NATS', () => {
  let nats: NatsConnection;
  let stream: StreamDefinition;

  beforeAll(async () => {
    nats = await connect({ servers: testInfra().natsUrl.us });
    const name = `TEST_${randomBytes(6).toString('hex').toUpperCase()}`;
    stream = { name, subjects: [`test.${name.toLowerCase()}.v1`], duplicateWindowMs: 60_000 };
    // Its owner made it before any event is published.
    await ensureStream(nats, stream);
  });
  afterAll(async () => {
    await (await jetstreamManager(nats)).streams.delete(stream.name).catch(() => undefined);
    await nats?.close();
  });

  it('takes every event once, and no more than a pull while its handler is slow', async () => {
    const taken: number[] = [];
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const consumer = new DurableEventConsumer(nats, {
      stream,
      consumer: { name: 'spec', filterSubject: stream.subjects[0], ackWaitMs: 30_000 },
      schema: z.object({ n: z.number() }),
      handle: async (event) => {
        await stalled;
        taken.push(event.n);
      },
      log: { warn: () => undefined, error: () => undefined },
    });
    await consumer.start();
    try {
      const js = jetstream(nats);
      for (let n = 0; n < 50; n++) await js.publish(stream.subjects[0], JSON.stringify({ n }));
      const manager = await jetstreamManager(nats);
      const info = () => manager.consumers.info(stream.name, 'spec');
      await eventually(info, (state) => state.num_ack_pending > 0);
      // A while for more to be handed over, were the consumer to ask.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await info()).num_ack_pending).toBeLessThanOrEqual(10);
      release();
      await eventually(
        () => Promise.resolve(taken.length),
        (count) => count === 50,
      );
      expect([...taken].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, n) => n));
    } finally {
      release();
      await consumer.stop();
    }
  });
});
