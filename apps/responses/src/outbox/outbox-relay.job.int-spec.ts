import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Logger } from '@nestjs/common';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { parseConfig } from '@formline/config';
import { Streams, Subjects } from '@formline/contracts';
import type { ResponsesPrismaClient } from '@formline/db';
import { connectNats, ensureStream, RpcClient } from '@formline/messaging';
import { outboxDeadLetteredTotal } from '@formline/ops';
import {
  eventually,
  freePort,
  readStreamEvents,
  scratchResponsesDatabase,
  type ScratchDatabase,
  testInfra,
  TestNatsServer,
} from '@formline/testing';
import { responsesConfigSchema } from '@formline/app-config';
import { ResponsesRetentionJob } from '../retention/responses-retention.job';
import { ErasureJobRepository } from '../erasure/erasure-job.repository';
import { UploadRepository } from '../uploads/upload.repository';
import { OutboxRelayJob } from './outbox-relay.job';
import { OutboxRepository } from './outbox.repository';

// A subject no stream takes, on purpose.
// eslint-disable-next-line no-restricted-syntax
const unroutedSubject = 'responses.unknown.v1';

// The relay in-process, on an outbox of the spec's own, publishing to a NATS
// server of its own (real nats-server, JetStream on): the spec stops it to
// show that NATS being away only delays, and reads back every message the
// stream holds. The relay's decisions on their own are the unit spec's.
describe('outbox relay against PostgreSQL and JetStream', () => {
  const natsDir = path.join(testInfra().dataDir, `int-outbox-nats-${randomUUID()}`);
  let database: ScratchDatabase<ResponsesPrismaClient>;
  let nats: TestNatsServer;
  let connection: NatsConnection;
  let relay: OutboxRelayJob;
  let retention: ResponsesRetentionJob;

  beforeAll(async () => {
    [database, nats] = await Promise.all([
      scratchResponsesDatabase(),
      freePort().then((port) => new TestNatsServer(port, natsDir)),
    ]);
    await nats.start();
    const config = parseConfig(responsesConfigSchema, {
      REGION: 'us',
      BASE_URL: 'http://127.0.0.1:1',
      EU_BASE_URL: 'http://127.0.0.1:2',
      OPS_PORT: '0',
      NATS_URL: nats.url,
      NATS_RECONNECT_WAIT_MS: '100',
      RESPONSES_DATABASE_URL: database.url,
      OUTBOX_POLL_INTERVAL_MS: '100',
      OUTBOX_MAX_ATTEMPTS: '3',
      OUTBOX_PUBLISH_TIMEOUT_MS: '1000',
      RETENTION_INTERVAL_MS: '100',
    });
    connection = await connectNats(config, 'outbox-int-spec');
    const store = new OutboxRepository(database.client);
    relay = new OutboxRelayJob(store, connection, config);
    // No uploads here: the media app, asked to delete none, is never called.
    retention = new ResponsesRetentionJob(
      store,
      new UploadRepository(database.client),
      new ErasureJobRepository(database.client),
      new RpcClient(connection, 1000),
      config,
    );
    await relay.onApplicationBootstrap();
    retention.onApplicationBootstrap();
  });

  afterAll(async () => {
    await retention?.onApplicationShutdown();
    await relay?.onApplicationShutdown();
    await connection?.close();
    await nats?.stop();
    await database?.dispose();
    rmSync(natsDir, { recursive: true, force: true });
  });

  // A row as the responses service writes it, a minute old (first in the
  // relay's order), with a payload of the test's choosing.
  const insertRow = (
    id: string,
    payloadText: string,
    subject: string = Subjects.responsesResponseSubmitted,
    requestId: string | null = null,
  ) =>
    database.client.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, subject, payload, request_id, created_at)
       VALUES ($1, $2, $3::json, $4, (now() AT TIME ZONE 'UTC') - interval '1 minute')`,
      id,
      subject,
      payloadText,
      requestId,
    );
  const event = (id: string, token = id) =>
    `{"event_id":"${id}","event_type":"form_response","account_id":"account","form_response":{"form_id":"outbox","token":"${token}"}}`;
  const rowOf = (id: string) => database.client.outboxEvent.findUnique({ where: { id } });
  const published = (id: string) =>
    eventually(
      () => rowOf(id),
      (row) => (row?.publishedAt ?? null) !== null,
    );
  const streamEvents = () => readStreamEvents(nats.url, Streams.responses.name);

  it("keeps events on the RESPONSES stream for RESPONSES_STREAM_MAX_AGE_MS at most (a week by default), and brings an existing stream's limit up to date", async () => {
    const manager = await jetstreamManager(connection);
    const maxAge = async () => (await manager.streams.info(Streams.responses.name)).config.max_age;
    expect(await maxAge()).toBe(nanos(7 * 24 * 3_600_000));
    // A stream made before the limit existed (no age limit) gets it on the next start.
    await manager.streams.update(Streams.responses.name, { max_age: 0 });
    await ensureStream(connection, { ...Streams.responses, maxAgeMs: 3_600_000 });
    expect(await maxAge()).toBe(nanos(3_600_000));
    await ensureStream(connection, { ...Streams.responses, maxAgeMs: 7 * 24 * 3_600_000 });
  });

  it('publishes an event with its event id as message id and its request id as X-Request-Id, then marks it', async () => {
    const id = randomUUID();
    await insertRow(id, event(id), Subjects.responsesResponseSubmitted, 'request-42');
    relay.nudge();
    expect((await published(id))?.publishedAt).not.toBeNull();
    const copies = (await streamEvents()).filter((message) => message.messageId === id);
    expect(copies).toEqual([{ messageId: id, requestId: 'request-42', data: JSON.parse(event(id)) }]);
  });

  // A row as the responses service writes it with a response: created now.
  const insertFreshRow = (id: string) =>
    database.client.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, subject, payload, request_id, created_at)
       VALUES ($1, $2, $3::json, NULL, now() AT TIME ZONE 'UTC')`,
      id,
      Subjects.responsesResponseSubmitted,
      event(id),
    );

  it('publishes an event its writer just committed at once, from memory, and marks it', async () => {
    const id = randomUUID();
    await insertFreshRow(id);
    const started = Date.now();
    relay.publishCommitted({
      id,
      subject: Subjects.responsesResponseSubmitted,
      payload: event(id),
      requestId: 'request-7',
    });
    expect((await published(id))?.publishedAt).not.toBeNull();
    // Long before the poller would take a row this young (the publish timeout and the pool's, 3 s).
    expect(Date.now() - started).toBeLessThan(2500);
    const copies = (await streamEvents()).filter((message) => message.messageId === id);
    expect(copies).toEqual([{ messageId: id, requestId: 'request-7', data: JSON.parse(event(id)) }]);
  });

  it('leaves a young row to its writer, and relays it once older when the writer never published it', async () => {
    const id = randomUUID();
    await insertFreshRow(id);
    relay.nudge();
    await relay.drain();
    expect((await rowOf(id))?.publishedAt).toBeNull();
    const row = await eventually(
      () => rowOf(id),
      (current) => (current?.publishedAt ?? null) !== null,
      15_000,
    );
    // OUTBOX_PUBLISH_TIMEOUT_MS (1 s here) and DATABASE_POOL_TIMEOUT_MS (2 s) for the writer to mark it,
    // both timestamps by PostgreSQL's clock.
    expect(row!.publishedAt!.getTime() - row!.createdAt.getTime()).toBeGreaterThanOrEqual(3000);
    expect(row).toMatchObject({ attempts: 0, deadLetteredAt: null });
    expect((await streamEvents()).filter((message) => message.messageId === id)).toHaveLength(1);
  });

  it('re-publishes with the same id after a crash between publish and bookkeeping, and JetStream keeps one', async () => {
    const id = randomUUID();
    // What a relay that died after JetStream's ack, before marking the row, leaves behind.
    await jetstream(connection).publish(Subjects.responsesResponseSubmitted, event(id), { msgID: id });
    await insertRow(id, event(id));
    expect((await published(id))?.publishedAt).not.toBeNull();
    expect((await streamEvents()).filter((message) => message.messageId === id)).toHaveLength(1);
  });

  it('sets aside rows it cannot publish after OUTBOX_MAX_ATTEMPTS, and publishes those behind them', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const deadLetteredBefore = (await outboxDeadLetteredTotal.get()).values[0]?.value ?? 0;
    const surrogate = randomUUID(); // PostgreSQL refuses to parse it as JSON (22P02)
    const oversized = randomUUID(); // larger than NATS's max_payload
    const unrouted = randomUUID(); // a subject no stream takes
    await insertRow(surrogate, event(surrogate, 'x\\ud800y'));
    await insertRow(oversized, event(oversized, 'b'.repeat(1_200_000)));
    await insertRow(unrouted, event(unrouted), unroutedSubject);
    const behind = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of behind) await insertRow(id, event(id));
    relay.nudge();

    for (const id of behind) expect((await published(id))?.publishedAt).not.toBeNull();
    const setAside = await eventually(
      () => database.client.outboxEvent.findMany({ where: { id: { in: [oversized, unrouted] } } }),
      (rows) => rows.length === 2 && rows.every((row) => row.deadLetteredAt !== null),
    );
    for (const row of setAside) expect(row).toMatchObject({ attempts: 3, publishedAt: null });
    expect(setAside.find((row) => row.id === oversized)?.lastError).toMatch(/max_payload/);

    const events = await streamEvents();
    // The payload PostgreSQL cannot parse is sent as stored, byte for byte.
    expect(events.find((message) => message.messageId === surrogate)?.data.form_response.token).toBe(
      'x\ud800y',
    );
    expect(events.some((message) => message.messageId === oversized || message.messageId === unrouted)).toBe(
      false,
    );
    expect((await outboxDeadLetteredTotal.get()).values[0]?.value).toBe(deadLetteredBefore + 2);
    const logged = errors.mock.calls.map(([message]) => String(message));
    expect(logged).toContainEqual(
      expect.stringContaining(
        `outbox event ${oversized} (responses.response.submitted.v1) set aside after 3`,
      ),
    );
    expect(logged).toContainEqual(
      expect.stringContaining(`outbox event ${unrouted} (${unroutedSubject}) set aside after 3`),
    );
    errors.mockRestore();
  });

  it('counts no attempt while NATS is away, measures the backlog and its age, and publishes on return', async () => {
    await nats.stop();
    const waiting = randomUUID();
    await insertRow(waiting, event(waiting));
    relay.nudge();
    await relay.drain();
    const stats = await new OutboxRepository(database.client).stats();
    expect(stats.backlog).toBe(1);
    expect(stats.oldestAgeSeconds).toBeGreaterThanOrEqual(60);

    await nats.start();
    const row = await eventually(
      () => rowOf(waiting),
      (current) => (current?.publishedAt ?? null) !== null,
      20_000,
    );
    expect(row).toMatchObject({ attempts: 0, deadLetteredAt: null });
    expect(await new OutboxRepository(database.client).stats()).toMatchObject({
      backlog: 0,
      oldestAgeSeconds: 0,
    });
  });

  it('prunes published rows past OUTBOX_RETENTION_MS, and keeps the rows set aside', async () => {
    const old = randomUUID();
    await insertRow(old, event(old));
    await published(old);
    // Set aside two days ago, never published.
    const setAside = randomUUID();
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await database.client.outboxEvent.create({
      data: {
        id: setAside,
        subject: Subjects.responsesResponseSubmitted,
        payload: {},
        createdAt: twoDaysAgo,
        deadLetteredAt: twoDaysAgo,
      },
    });
    const publishedCount = await database.client.outboxEvent.count({ where: { publishedAt: { not: null } } });
    // As if published two days ago (the default keeps them one day).
    await database.client
      .$executeRaw`UPDATE outbox_events SET published_at = published_at - interval '2 days' WHERE id = ${old}`;
    await eventually(
      () => rowOf(old),
      (row) => row === null,
    );
    expect(await rowOf(old)).toBeNull();
    expect(await database.client.outboxEvent.count({ where: { publishedAt: { not: null } } })).toBe(
      publishedCount - 1,
    );
    expect(await rowOf(setAside)).toMatchObject({ publishedAt: null });
  });
});

// Replicas of the relay share the outbox: a batch claimed by one is invisible
// to the others until its transaction ends.
describe('outbox claims', () => {
  let database: ScratchDatabase<ResponsesPrismaClient>;

  beforeAll(async () => {
    database = await scratchResponsesDatabase();
  });

  afterAll(() => database?.dispose());

  it('never hands the same row to two relays at once, oldest first', async () => {
    const ids = ['o1', 'o2', 'o3', 'o4', 'o5'];
    for (const [n, id] of ids.entries()) {
      await database.client.outboxEvent.create({
        data: {
          id,
          subject: Subjects.responsesResponseSubmitted,
          payload: {},
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
        },
      });
    }
    const [one, other] = [new OutboxRepository(database.client), new OutboxRepository(database.client)];
    const claims = await one.withClaimedBatch(2, 10_000, async (first) => {
      const second = await other.withClaimedBatch(10, 10_000, async (batch) => {
        await batch.markPublished(batch.ids);
        return batch.ids;
      });
      return [first.ids, second];
    });
    expect(claims).toEqual([
      ['o1', 'o2'],
      ['o3', 'o4', 'o5'],
    ]);
    // A writer's mark skips a row a poller holds (it is the poller's to mark), without waiting.
    const writerMark = await one.withClaimedBatch(10, 10_000, async (batch) => {
      expect(batch.ids).toEqual(['o1', 'o2']);
      return new OutboxRepository(database.client).markPublishedNow('o1');
    });
    expect(writerMark).toBe(false);
    // The first batch, released unmarked, is pending again.
    expect(await one.withClaimedBatch(10, 10_000, (batch) => Promise.resolve(batch.ids))).toEqual([
      'o1',
      'o2',
    ]);
  });
});
