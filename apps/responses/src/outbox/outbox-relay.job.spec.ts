import type { NatsConnection } from '@nats-io/transport-node';
import { Subjects } from '@formline/contracts';
import { outboxFastPathMissedTotal } from '@formline/ops';
import type { ResponsesConfig } from '@formline/app-config';
import { runsWithin } from '@formline/input';
import { OutboxRelayJob, type OutboxPublisher } from './outbox-relay.job';
import type { ClaimedBatch, OutboxRow, OutboxRepository } from './outbox.repository';

// A subject no stream takes, on purpose.
// eslint-disable-next-line no-restricted-syntax
const unknownSubject = 'responses.unknown.v1';

// The relay's decisions, against an outbox in memory: what is marked, what
// counts an attempt, what is set aside, and what only pauses.
interface MemoryRow extends OutboxRow {
  attempts: number;
  published: boolean;
  dead: boolean;
  unreadable?: boolean;
}

class MemoryOutbox {
  constructor(readonly rows: MemoryRow[]) {}

  withClaimedBatch<T>(
    limit: number,
    _timeout: number,
    work: (batch: ClaimedBatch) => Promise<T>,
  ): Promise<T> {
    const claimed = this.rows.filter((row) => !row.published && !row.dead).slice(0, limit);
    return work({
      ids: claimed.map((row) => row.id),
      markPublished: (ids) => {
        for (const row of this.rows) if (ids.includes(row.id)) row.published = true;
        return Promise.resolve();
      },
      countFailures: (failures, maxAttempts) => {
        const setAside = [];
        for (const failure of failures) {
          const row = this.rows.find((candidate) => candidate.id === failure.id)!;
          row.attempts += 1;
          if (row.attempts >= maxAttempts) {
            row.dead = true;
            setAside.push({
              id: row.id,
              subject: row.subject,
              attempts: row.attempts,
              lastError: failure.error,
            });
          }
        }
        return Promise.resolve(setAside);
      },
    });
  }

  marksFail = false;

  markPublishedNow(id: string): Promise<boolean> {
    if (this.marksFail) return Promise.reject(new Error('database away'));
    const row = this.rows.find((candidate) => candidate.id === id);
    if (!row || row.published) return Promise.resolve(false);
    row.published = true;
    return Promise.resolve(true);
  }

  reads: string[][] = [];

  runsOfBytes(ids: readonly string[], maxBytes: number): Promise<string[][]> {
    const bytesOf = (id: string) => this.rows.find((row) => row.id === id)?.payload.length ?? 0;
    return Promise.resolve(runsWithin(ids, bytesOf, maxBytes));
  }

  read(ids: readonly string[]) {
    this.reads.push([...ids]);
    const chosen = this.rows.filter((row) => ids.includes(row.id));
    return Promise.resolve({
      rows: chosen.filter((row) => !row.unreadable),
      unreadable: chosen
        .filter((row) => row.unreadable)
        .map((row) => ({ id: row.id, error: 'unreadable: 22P02' })),
    });
  }
}

const row = (id: string, extra: Partial<MemoryRow> = {}): MemoryRow => ({
  id,
  subject: Subjects.responsesResponseSubmitted,
  payload: '{}',
  requestId: null,
  attempts: 0,
  published: false,
  dead: false,
  ...extra,
});

const named = (name: string) => Object.assign(new Error(name), { name });

const quietConnection = {
  status: async function* () {
    await new Promise(() => undefined);
    yield undefined;
  },
  isClosed: () => false,
} as unknown as NatsConnection;

function relayOver(outbox: MemoryOutbox, maxAttempts = 3): OutboxRelayJob {
  const config = {
    OUTBOX_BATCH_SIZE: 10,
    OUTBOX_MAX_ATTEMPTS: maxAttempts,
    OUTBOX_PUBLISH_TIMEOUT_MS: 100,
    DATABASE_POOL_TIMEOUT_MS: 100,
  };
  const relay = new OutboxRelayJob(
    outbox as unknown as OutboxRepository,
    quietConnection,
    config as ResponsesConfig,
  );
  jest.spyOn((relay as unknown as { logger: { error: () => void } }).logger, 'error').mockImplementation();
  return relay;
}

const publisher = (fail: (row: OutboxRow) => Error | undefined, streamAnswers = true): OutboxPublisher => ({
  publish: (r) => {
    const error = fail(r);
    return error ? Promise.reject(error) : Promise.resolve();
  },
  streamAnswers: () => Promise.resolve(streamAnswers),
});

describe('OutboxRelayJob', () => {
  it('publishes the rows behind a bad one, and sets the bad one aside after the maximum attempts', async () => {
    const outbox = new MemoryOutbox([row('bad'), row('a'), row('b', { unreadable: true }), row('c')]);
    const relay = relayOver(outbox);
    const tooLarge = publisher((r) => (r.id === 'bad' ? named('InvalidArgumentError') : undefined));

    const first = await relay.relayBatch(tooLarge);
    expect(first).toMatchObject({ claimed: 4, published: 2, pausedBy: undefined });
    expect(outbox.rows.filter((r) => r.published).map((r) => r.id)).toEqual(['a', 'c']);
    await relay.relayBatch(tooLarge);
    await relay.relayBatch(tooLarge);
    expect(outbox.rows.find((r) => r.id === 'bad')).toMatchObject({ attempts: 3, dead: true });
    expect(outbox.rows.find((r) => r.id === 'b')).toMatchObject({ attempts: 3, dead: true });
    expect(await relay.relayBatch(tooLarge)).toMatchObject({ claimed: 0 });
  });

  it('reads and publishes a batch of large events a run of at most 8 MB at a time', async () => {
    const large = (id: string) => row(id, { payload: `"${'x'.repeat(3 * 1024 * 1024)}"` });
    const outbox = new MemoryOutbox([large('a'), large('b'), large('c'), large('d'), row('e')]);
    const relay = relayOver(outbox);
    expect(await relay.relayBatch(publisher(() => undefined))).toMatchObject({ claimed: 5, published: 5 });
    expect(outbox.reads).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('ends a batch at a run where NATS looks away: the runs after it wait for the next batch', async () => {
    const large = (id: string) => row(id, { payload: `"${'x'.repeat(3 * 1024 * 1024)}"` });
    const outbox = new MemoryOutbox([large('a'), large('b'), large('c'), large('d')]);
    const relay = relayOver(outbox);
    const result = await relay.relayBatch(publisher(() => named('TimeoutError'), false));
    expect(result).toMatchObject({
      claimed: 4,
      published: 0,
      pausedBy: expect.stringMatching(/TimeoutError/),
    });
    expect(outbox.reads).toEqual([['a', 'b']]);
    expect(outbox.rows.map((r) => r.attempts)).toEqual([0, 0, 0, 0]);
  });

  it('counts nothing against the rows while NATS is away, and says it paused', async () => {
    const outbox = new MemoryOutbox([row('a'), row('b')]);
    const relay = relayOver(outbox, 1);
    const away = publisher(() => named('TimeoutError'), false);
    for (let i = 0; i < 5; i++) expect((await relay.relayBatch(away)).pausedBy).toMatch(/TimeoutError/);
    expect(outbox.rows.map((r) => [r.attempts, r.dead, r.published])).toEqual([
      [0, false, false],
      [0, false, false],
    ]);
  });

  it('counts a refusal against the row when the stream answers (e.g. a subject no stream takes)', async () => {
    const outbox = new MemoryOutbox([row('lost', { subject: unknownSubject })]);
    const relay = relayOver(outbox, 2);
    const refusing = publisher((r) =>
      r.subject === unknownSubject ? named('JetStreamNotEnabled') : undefined,
    );
    await relay.relayBatch(refusing);
    await relay.relayBatch(refusing);
    expect(outbox.rows[0]).toMatchObject({ attempts: 2, dead: true, published: false });
  });

  it('counts nothing while JetStream is still starting after an outage (every publish refused, the stream silent)', async () => {
    const outbox = new MemoryOutbox([row('a'), row('b')]);
    const relay = relayOver(outbox, 1);
    const starting = publisher(() => named('JetStreamNotEnabled'), false);
    for (let i = 0; i < 5; i++)
      expect((await relay.relayBatch(starting)).pausedBy).toMatch(/JetStreamNotEnabled/);
    expect(outbox.rows.map((r) => [r.attempts, r.dead])).toEqual([
      [0, false],
      [0, false],
    ]);
    await relay.relayBatch(publisher(() => undefined));
    expect(outbox.rows.every((r) => r.published)).toBe(true);
  });

  it('counts no timeout against a row, even while the rows beside it get through', async () => {
    const outbox = new MemoryOutbox([row('slow'), row('a')]);
    const relay = relayOver(outbox, 1);
    const slowOne = publisher((r) => (r.id === 'slow' ? named('TimeoutError') : undefined));
    expect(await relay.relayBatch(slowOne)).toMatchObject({ published: 1, pausedBy: undefined });
    expect(await relay.relayBatch(slowOne)).toMatchObject({
      published: 0,
      pausedBy: expect.stringMatching(/TimeoutError/) as unknown,
    });
    expect(outbox.rows.find((r) => r.id === 'slow')).toMatchObject({ attempts: 0, dead: false });
  });
});

// The fast path: an event its writer just committed, published and marked at once.
describe('OutboxRelayJob.publishCommitted', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  // A relay as bootstrapped, publishing through `publish` (its JetStream).
  function bootstrapped(outbox: MemoryOutbox, publish: OutboxPublisher['publish']) {
    const relay = relayOver(outbox);
    const published: string[] = [];
    (relay as unknown as { publisher: OutboxPublisher }).publisher = {
      publish: (r) => {
        published.push(r.id);
        return publish(r);
      },
      streamAnswers: () => Promise.resolve(true),
    };
    return { relay, published };
  }

  it('publishes the row and marks it, without the poller', async () => {
    const outbox = new MemoryOutbox([row('a')]);
    const { relay, published } = bootstrapped(outbox, () => Promise.resolve());
    relay.publishCommitted(outbox.rows[0]);
    await settle();
    expect(published).toEqual(['a']);
    expect(outbox.rows[0].published).toBe(true);
  });

  it('leaves the row unmarked, for the poller, when the publish fails or the mark does', async () => {
    const missedBefore = (await outboxFastPathMissedTotal.get()).values[0]?.value ?? 0;
    const outbox = new MemoryOutbox([row('refused'), row('unmarked')]);
    const { relay } = bootstrapped(outbox, (r) =>
      r.id === 'refused' ? Promise.reject(named('TimeoutError')) : Promise.resolve(),
    );
    relay.publishCommitted(outbox.rows[0]);
    await settle();
    outbox.marksFail = true;
    relay.publishCommitted(outbox.rows[1]);
    await settle();
    expect(outbox.rows.map((r) => r.published)).toEqual([false, false]);
    // Counted, so a fast path that keeps missing shows on the metrics.
    expect((await outboxFastPathMissedTotal.get()).values[0]?.value).toBe(missedBefore + 2);
  });

  it('waits at shutdown for the publishes under way, and publishes nothing after', async () => {
    const outbox = new MemoryOutbox([row('held'), row('late')]);
    let release!: () => void;
    const { relay, published } = bootstrapped(
      outbox,
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    relay.publishCommitted(outbox.rows[0]);
    let stopped = false;
    const stopping = relay.onApplicationShutdown().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(outbox.rows[0].published).toBe(true);
    relay.publishCommitted(outbox.rows[1]);
    await settle();
    expect(published).toEqual(['held']);
  });
});
