import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { testInfra } from '@formline/testing';
import { ensureStream, ensureStreamExists, type StreamDefinition } from './jetstream';

// A stream's settings have one writer, its owner: a consumer that starts
// first creates the stream as defined, and never changes one that exists.
describe('JetStream streams against the test profile’s NATS', () => {
  let nats: NatsConnection;
  const hour = 3_600_000;
  const streamOf = (maxAgeMs: number): StreamDefinition => {
    const name = `TEST_${randomBytes(6).toString('hex').toUpperCase()}`;
    return { name, subjects: [`test.${name.toLowerCase()}.v1`], duplicateWindowMs: 60_000, maxAgeMs };
  };
  const maxAgeMsOf = async (name: string) =>
    (await (await jetstreamManager(nats)).streams.info(name)).config.max_age / 1_000_000;

  beforeAll(async () => {
    nats = await connect({ servers: testInfra().natsUrl.us });
  });
  afterAll(() => nats?.close());

  it('lets a consumer create a missing stream, then its owner set its limits', async () => {
    const stream = streamOf(2 * hour);
    // Two consumers starting at once: one creates it.
    await Promise.all([ensureStreamExists(nats, stream), ensureStreamExists(nats, stream)]);
    expect(await maxAgeMsOf(stream.name)).toBe(2 * hour);
    await ensureStream(nats, { ...stream, maxAgeMs: hour });
    expect(await maxAgeMsOf(stream.name)).toBe(hour);
    await (await jetstreamManager(nats)).streams.delete(stream.name);
  });

  it('leaves an existing stream as its owner set it when a consumer starts with other settings', async () => {
    const stream = streamOf(hour);
    await ensureStream(nats, stream);
    await ensureStreamExists(nats, { ...stream, maxAgeMs: 5 * hour });
    expect(await maxAgeMsOf(stream.name)).toBe(hour);
    await (await jetstreamManager(nats)).streams.delete(stream.name);
  });
});
