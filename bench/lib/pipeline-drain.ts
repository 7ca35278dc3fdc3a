import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Client } from 'pg';
import { Streams } from '@formline/contracts';
import { type Context, progress, waitFor } from './bench-run';

// Until what submissions set going has ended: every outbox row published,
// the webhooks consumer with nothing pending, no delivery waiting to be sent.
// A round's CPU counts up to here (the work it caused is its cost), and the
// next load starts only then, so no round shares the cores with the last one's tail.
export class PipelineDrain {
  private constructor(
    private readonly responses: Client,
    private readonly webhooks: Client,
    private readonly nats: NatsConnection,
    private readonly jsm: JetStreamManager,
  ) {}

  static async open(c: Context): Promise<PipelineDrain> {
    const responses = new Client({ connectionString: `${c.infra.databaseHostUrl}/formline_responses_us` });
    const webhooks = new Client({ connectionString: `${c.infra.databaseHostUrl}/formline_webhooks_us` });
    await Promise.all([responses.connect(), webhooks.connect()]);
    const nats = await connect({ servers: c.infra.natsUrl });
    return new PipelineDrain(responses, webhooks, nats, await jetstreamManager(nats));
  }

  // Waits until drained, at most `timeoutMs`; says so if it was not.
  async drained(timeoutMs = 120_000): Promise<boolean> {
    const count = async (db: Client, sql: string) => ((await db.query(sql)).rows[0] as { n: number }).n;
    const drained = await waitFor(async () => {
      if (
        (await count(
          this.responses,
          'SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL',
        )) > 0
      )
        return false;
      const consumer = await this.jsm.consumers.info(
        Streams.responses.name,
        Streams.responses.consumers.webhooks,
      );
      if (consumer.num_pending + consumer.num_ack_pending > 0) return false;
      return (
        (await count(this.webhooks, "SELECT count(*)::int AS n FROM deliveries WHERE status = 'pending'")) ===
        0
      );
    }, timeoutMs);
    if (!drained)
      progress(`  (outbox, webhooks consumer or deliveries still had work after ${timeoutMs / 1000} s)`);
    return drained;
  }

  async close(): Promise<void> {
    await this.nats.close();
    await Promise.all([this.responses.end(), this.webhooks.end()]);
  }
}
