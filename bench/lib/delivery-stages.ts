import { Client } from 'pg';
import { percentile, round } from './stats';

// Where a delivery's time goes, from the timestamps the pipeline stores
// anyway, all taken by the one PostgreSQL server's clock: the response row
// (inserted), its outbox row (marked once published to JetStream), the
// delivery row (planned by the webhooks service) and its first attempt
// (started by the dispatcher); then the receiver's arrival time, on this
// machine's clock (the same clock, as PostgreSQL runs here too).
export interface StageTimings {
  /** Stage name to its waits in ms, one per delivery that went through it. */
  stages: Record<StageName, number[]>;
  /** Deliveries for which every timestamp was found. */
  traced: number;
}

export const stageNames = ['relay', 'consume and plan', 'queue to dispatch', 'send and receive'] as const;
export type StageName = (typeof stageNames)[number];

interface Stamps {
  inserted: number;
  published?: number;
  planned?: number;
  attempted?: number;
}

export async function deliveryStages(
  databaseHostUrl: string,
  region: string,
  arrivals: ReadonlyMap<string, number>,
): Promise<StageTimings> {
  const tokens = [...arrivals.keys()];
  const byEvent = new Map<string, Stamps & { token: string }>();
  await withClient(`${databaseHostUrl}/formline_responses_${region}`, async (db) => {
    const { rows } = await db.query<{
      token: string;
      event: string;
      inserted: number;
      published: number | null;
    }>(
      `SELECT r.id AS token, o.id AS event,
              extract(epoch FROM r.created_at) * 1000 AS inserted,
              extract(epoch FROM o.published_at) * 1000 AS published
         FROM responses r JOIN outbox_events o ON o.payload -> 'form_response' ->> 'token' = r.id
        WHERE r.id = ANY($1)`,
      [tokens],
    );
    for (const row of rows)
      byEvent.set(row.event, {
        token: row.token,
        inserted: Number(row.inserted),
        published: row.published === null ? undefined : Number(row.published),
      });
  });
  await withClient(`${databaseHostUrl}/formline_webhooks_${region}`, async (db) => {
    const { rows } = await db.query<{ event: string; planned: number; attempted: number | null }>(
      `SELECT d.event_id AS event,
              extract(epoch FROM d.created_at) * 1000 AS planned,
              extract(epoch FROM min(a.attempted_at)) * 1000 AS attempted
         FROM deliveries d LEFT JOIN delivery_attempts a ON a.delivery_id = d.id
        WHERE d.event_id = ANY($1)
        GROUP BY d.id`,
      [[...byEvent.keys()]],
    );
    for (const row of rows) {
      const stamps = byEvent.get(row.event);
      if (!stamps) continue;
      stamps.planned = Number(row.planned);
      stamps.attempted = row.attempted === null ? undefined : Number(row.attempted);
    }
  });
  const stages = Object.fromEntries(stageNames.map((name) => [name, [] as number[]])) as Record<
    StageName,
    number[]
  >;
  let traced = 0;
  for (const { token, inserted, published, planned, attempted } of byEvent.values()) {
    const arrived = arrivals.get(token);
    if (published === undefined || planned === undefined || attempted === undefined || arrived === undefined)
      continue;
    traced += 1;
    // published_at is written once JetStream acknowledged the event, which
    // can be after the webhooks service planned it: the relay's stage ends
    // at whichever came first.
    const relayed = Math.min(published, planned);
    stages.relay.push(relayed - inserted);
    stages['consume and plan'].push(planned - relayed);
    stages['queue to dispatch'].push(attempted - planned);
    stages['send and receive'].push(arrived - attempted);
  }
  return { stages, traced };
}

// "relay p50 3 ms p99 12 ms, ..." for a progress line.
export function describeStages({ stages }: StageTimings): string {
  return stageNames
    .map(
      (name) =>
        `${name} p50 ${round(percentile(stages[name], 50))} p99 ${round(percentile(stages[name], 99))}`,
    )
    .join(', ');
}

async function withClient(url: string, work: (db: Client) => Promise<void>): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await work(db);
  } finally {
    await db.end();
  }
}
