import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { jetstream, type JetStreamClient, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { Streams } from '@formline/contracts';
import { BackgroundRounds } from '@formline/db';
import { ensureStream, NATS_CONNECTION, NatsLink, natsHeadersWithRequestId } from '@formline/messaging';
import { recordOutboxDeadLetters, recordOutboxFastPathMissed, setOutboxStats } from '@formline/ops';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { markLingerMs, type OutboxRow, OutboxRepository } from './outbox.repository';

/** What the relay needs of JetStream. */
export interface OutboxPublisher {
  /** One publish, resolved once JetStream acknowledged it. */
  publish(row: OutboxRow): Promise<unknown>;
  /** Whether the stream answers at all (asked only when a publish of the batch failed). */
  streamAnswers(): Promise<boolean>;
}

// The most bytes of stored events the poller reads and publishes at once.
const relayRunBytes = 8 * 1024 * 1024;

// Failures that say NATS or JetStream is slow or away, never that the row is
// bad: they count against no row. Any other failure (too large, a subject no
// stream takes, which nats.js reports as JetStreamNotEnabled) counts against
// its row only while the stream itself answers: a JetStream that is still
// starting after an outage refuses every publish the same way, and counting
// those would set good rows aside.
const transient = new Set([
  'TimeoutError',
  'ClosedConnectionError',
  'DrainingConnectionError',
  'ConnectionError',
  'RequestError',
]);

export interface BatchResult {
  claimed: number;
  published: number;
  /** Set when NATS looks away: the relay waits for the next nudge or tick. */
  pausedBy?: string;
}

// Publishes the outbox to the region's JetStream stream. An event its writer
// has just committed is published at once, from memory, and marked
// (publishCommitted: no claim, no read, no transaction; one round trip to
// NATS and one to PostgreSQL, shared with concurrent writers). Whatever that
// fast path leaves (NATS away, the process stopped, a publish refused) the
// poller relays once the row is older than fastPathGraceMs, a batch at a time:
// claim the oldest pending rows (by id, locked so replicas never take the
// same ones), read their payloads apart and publish them, a run of at most
// relayRunBytes at a time, each with its event id as JetStream message id
// (a run where NATS looks away ends the batch), then mark those JetStream acknowledged,
// and only those (at least once: a crash before the mark re-publishes the same
// ids, which JetStream's duplicate window absorbs).
// A row that fails on its own (unreadable, too large, refused while the
// stream answers) counts an attempt; after OUTBOX_MAX_ATTEMPTS it is set aside (dead_lettered_at) with
// an error log naming it and formline_outbox_dead_letters, and the rows behind
// it flow on. NATS being away counts against no row: it only delays.
@Injectable()
export class OutboxRelayJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelayJob');
  private readonly link: NatsLink;
  private publisher?: OutboxPublisher;
  // A round: the outbox's figures reported, then relayed until it is empty.
  private readonly rounds: BackgroundRounds;
  private stopped = false;
  // Fast-path publishes under way, awaited at shutdown.
  private readonly publishing = new Set<Promise<void>>();
  // How long a new row is left to its writer's fast path: its publish's
  // timeout, and the mark's wait for others and for a connection. Should the
  // poller relay it too, the message id is the same and JetStream keeps one.
  private readonly fastPathGraceMs: number;

  constructor(
    private readonly store: OutboxRepository,
    @Inject(NATS_CONNECTION) nats: NatsConnection,
    @Inject(RESPONSES_CONFIG) private readonly config: ResponsesConfig,
  ) {
    this.link = new NatsLink(nats);
    this.fastPathGraceMs = config.OUTBOX_PUBLISH_TIMEOUT_MS + config.DATABASE_POOL_TIMEOUT_MS + markLingerMs;
    this.rounds = new BackgroundRounds(config.OUTBOX_POLL_INTERVAL_MS, async () => {
      void this.reportStats();
      await this.drain().catch((error: unknown) => this.logger.warn(`outbox relay paused: ${String(error)}`));
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await ensureStream(this.link.connection, {
      ...Streams.responses,
      maxAgeMs: this.config.RESPONSES_STREAM_MAX_AGE_MS,
    });
    const options = { timeout: this.config.OUTBOX_PUBLISH_TIMEOUT_MS };
    this.publisher = jetstreamPublisher(jetstream(this.link.connection, options), () =>
      jetstreamManager(this.link.connection, options),
    );
    this.rounds.start();
    this.nudge();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.rounds.stop(), ...this.publishing]);
  }

  // The fast path: an event its writer has just committed, published and
  // marked without waiting for the poller. A failure here only leaves the row
  // to the poller (which counts attempts and sets bad rows aside).
  publishCommitted(row: OutboxRow): void {
    const publisher = this.publisher;
    if (this.stopped || !publisher || !this.link.isUp()) return;
    const run = publisher
      .publish(row)
      .then(() => this.store.markPublishedNow(row.id))
      .then(
        () => undefined,
        (error: unknown) => {
          recordOutboxFastPathMissed();
          this.logger.debug(`event ${row.id} left to the poller: ${String(error)}`);
        },
      )
      .finally(() => this.publishing.delete(run));
    this.publishing.add(run);
  }

  // Relay soon (one round at a time: asked during one, another follows it).
  nudge(): void {
    void this.rounds.runOnce();
  }

  // Relays batches until the outbox is empty or NATS looks away.
  async drain(): Promise<void> {
    while (!this.stopped && this.link.isUp() && this.publisher) {
      const result = await this.relayBatch(this.publisher);
      if (result.pausedBy) {
        this.logger.warn(`outbox relay paused: ${result.pausedBy}`);
        return;
      }
      if (result.claimed < this.config.OUTBOX_BATCH_SIZE) return;
    }
  }

  async relayBatch(publisher: OutboxPublisher): Promise<BatchResult> {
    const timeoutMs = this.config.OUTBOX_PUBLISH_TIMEOUT_MS + 10_000;
    return this.store.withClaimedBatch(
      this.config.OUTBOX_BATCH_SIZE,
      timeoutMs,
      async (batch) => {
        const published: string[] = [];
        const failed: { id: string; error: unknown }[] = [];
        const unreadable: { id: string; error: string }[] = [];
        // Read and published a run of at most relayRunBytes at a time: a
        // batch of events near their bound (a response and its form's
        // questions, up to 900 KiB each) is never all in memory at once.
        for (const ids of await this.store.runsOfBytes(batch.ids, relayRunBytes)) {
          const read = await this.store.read(ids);
          unreadable.push(...read.unreadable);
          const settled = await Promise.allSettled(read.rows.map((row) => publisher.publish(row)));
          let away = read.rows.length > 0;
          settled.forEach((outcome, i) => {
            if (outcome.status === 'fulfilled') published.push(read.rows[i].id);
            else failed.push({ id: read.rows[i].id, error: outcome.reason });
            away &&= outcome.status === 'rejected' && isTransient(outcome.reason);
          });
          // NATS looks away: the runs left wait for the next batch, so the
          // transaction does not outlive its timeout waiting on them.
          if (away) break;
        }
        // Asked only when something failed: whether JetStream is there to blame the rows.
        const streamAnswers = failed.length === 0 || (await publisher.streamAnswers());
        const ownFailures = [
          ...unreadable,
          ...(streamAnswers ? failed : [])
            .filter((f) => !isTransient(f.error))
            .map((f) => ({ id: f.id, error: String(f.error) })),
        ];
        const natsAway =
          published.length === 0 &&
          failed.length > 0 &&
          (!streamAnswers || failed.every((f) => isTransient(f.error)));
        await batch.markPublished(published);
        const setAside = await batch.countFailures(ownFailures, this.config.OUTBOX_MAX_ATTEMPTS);
        for (const row of setAside) {
          this.logger.error(
            `outbox event ${row.id} (${row.subject}) set aside after ${row.attempts} failed attempts: ${row.lastError ?? 'unknown error'}`,
          );
        }
        recordOutboxDeadLetters(setAside.length);
        return {
          claimed: batch.ids.length,
          published: published.length,
          pausedBy: natsAway ? String(failed[0].error) : undefined,
        };
      },
      this.fastPathGraceMs,
    );
  }

  // formline_outbox_backlog, formline_outbox_oldest_age_seconds, formline_outbox_dead_letters.
  async reportStats(): Promise<void> {
    try {
      setOutboxStats(await this.store.stats());
    } catch {
      // The database is away: keep the last values; the next tick reports again.
    }
  }
}

function isTransient(error: unknown): boolean {
  return error instanceof Error && transient.has(error.name);
}

// The stored payload text is the message, byte for byte; the event id is its
// JetStream message id (duplicate window), the request id its header.
function jetstreamPublisher(
  js: JetStreamClient,
  manager: () => ReturnType<typeof jetstreamManager>,
): OutboxPublisher {
  return {
    publish: (row) =>
      js.publish(row.subject, row.payload, {
        msgID: row.id,
        headers: row.requestId ? natsHeadersWithRequestId(row.requestId) : undefined,
      }),
    streamAnswers: async () => {
      try {
        await (await manager()).streams.info(Streams.responses.name);
        return true;
      } catch {
        return false;
      }
    },
  };
}
