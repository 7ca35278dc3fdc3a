import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { Streams } from '@formline/contracts';
import { ResponsesPrismaClient } from '@formline/db';
import { ensureStream, NatsLink, natsHeadersWithRequestId } from '@formline/messaging';
import { setOutboxBacklog } from '@formline/ops';
import { RESPONSES_CONFIG, type ResponsesConfig } from '../responses.config';
import { RESPONSES_NATS } from '../responses.tokens';

interface OutboxRow {
  id: string;
  subject: string;
  payload: unknown;
  /** The submission's request id, sent on as the message's X-Request-Id header. */
  request_id: string | null;
}

// Publishes the outbox to the region's JetStream stream. Rows are claimed with
// FOR UPDATE SKIP LOCKED (replicas never publish the same row at once), sent
// with their event id as JetStream message id, and marked published only once
// JetStream acknowledged them. A crash in between re-publishes the same id,
// which JetStream's duplicate window absorbs; NATS being down only delays.
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly link: NatsLink;
  private js?: JetStreamClient;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: ResponsesPrismaClient,
    @Inject(RESPONSES_NATS) nats: NatsConnection,
    @Inject(RESPONSES_CONFIG) private readonly config: ResponsesConfig,
  ) {
    this.link = new NatsLink(nats);
  }

  async onApplicationBootstrap(): Promise<void> {
    await ensureStream(this.link.connection, Streams.responses);
    this.js = jetstream(this.link.connection, { timeout: this.config.OUTBOX_PUBLISH_TIMEOUT_MS });
    this.timer = setInterval(() => this.nudge(), this.config.OUTBOX_POLL_INTERVAL_MS);
    this.nudge();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  // Relay soon: after a commit, or on the timer. One run at a time.
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.logger.warn(`outbox relay paused: ${String(error)}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  // Publishes batches until the outbox is empty or a publish fails.
  async drain(): Promise<void> {
    try {
      while (!this.stopped && this.link.isUp()) {
        const { published, failure } = await this.relayBatch();
        if (failure) this.logger.warn(`outbox relay paused: ${failure}`);
        if (failure || published < this.config.OUTBOX_BATCH_SIZE) return;
      }
    } finally {
      await this.reportBacklog();
    }
  }

  // formline_outbox_backlog: events not yet published (grows while NATS is away).
  private async reportBacklog(): Promise<void> {
    try {
      const [row] = await this.db.$queryRaw<{ backlog: bigint }[]>`
        SELECT count(*) AS backlog FROM outbox_events WHERE published_at IS NULL`;
      setOutboxBacklog(Number(row?.backlog ?? 0));
    } catch {
      // The database is away: keep the last value; the next run reports again.
    }
  }

  private async relayBatch(): Promise<{ published: number; failure?: string }> {
    const js = this.js;
    if (!js) return { published: 0 };
    return this.db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<OutboxRow[]>`
          SELECT o.id, o.subject, o.payload, r.request_id FROM outbox_events o
          LEFT JOIN responses r ON r.id = o.payload -> 'form_response' ->> 'token'
          WHERE o.published_at IS NULL ORDER BY o.created_at, o.id
          LIMIT ${this.config.OUTBOX_BATCH_SIZE} FOR UPDATE OF o SKIP LOCKED`;
        const published: string[] = [];
        let failure: string | undefined;
        for (const row of rows) {
          try {
            await js.publish(row.subject, JSON.stringify(row.payload), {
              msgID: row.id,
              headers: row.request_id ? natsHeadersWithRequestId(row.request_id) : undefined,
            });
            published.push(row.id);
          } catch (error) {
            failure = String(error);
            await tx.outboxEvent.update({
              where: { id: row.id },
              data: { attempts: { increment: 1 }, lastError: failure.slice(0, 500) },
            });
            break;
          }
        }
        if (published.length > 0) {
          await tx.outboxEvent.updateMany({
            where: { id: { in: published } },
            data: { publishedAt: new Date() },
          });
        }
        return { published: published.length, failure };
      },
      { timeout: 60_000 },
    );
  }
}
