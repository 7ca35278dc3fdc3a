import { readFileSync } from 'node:fs';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import pg from 'pg';

// Where a region's data could leak to: each function reads everything a store
// holds, as text, and says which of the `needles` (response tokens, event ids,
// answer markers of the other region) it found where. Slow and thorough, for
// tests only.
export interface Finding {
  store: string;
  where: string;
  needle: string;
}

function findIn(store: string, where: string, text: string, needles: readonly string[]): Finding[] {
  return needles.filter((needle) => text.includes(needle)).map((needle) => ({ store, where, needle }));
}

// Every row of every table of the database, as JSON.
export async function findInDatabase(url: string, needles: readonly string[]): Promise<Finding[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name
         FROM information_schema.tables
        WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
    );
    const findings: Finding[] = [];
    for (const { name } of tables.rows) {
      // Table names come from the catalogue, quoted by the server itself.
      const rows = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${name} t`);
      findings.push(
        ...findIn(url.replace(/^.*\//, 'database '), name, rows.rows.map((r) => r.row).join('\n'), needles),
      );
    }
    return findings;
  } finally {
    await client.end();
  }
}

// Every key of the Redis database with its value, whatever its type.
export async function findInRedis(url: string, needles: readonly string[]): Promise<Finding[]> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const findings: Finding[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const value = await redisValue(redis, key);
        findings.push(...findIn(`redis ${url}`, key, `${key}\n${value}`, needles));
      }
    } while (cursor !== '0');
    return findings;
  } finally {
    redis.disconnect();
  }
}

async function redisValue(redis: Redis, key: string): Promise<string> {
  switch (await redis.type(key)) {
    case 'string':
      return (await redis.get(key)) ?? '';
    case 'hash':
      return JSON.stringify(await redis.hgetall(key));
    case 'list':
      return (await redis.lrange(key, 0, -1)).join('\n');
    case 'set':
      return (await redis.smembers(key)).join('\n');
    case 'zset':
      return (await redis.zrange(key, 0, -1)).join('\n');
    case 'stream':
      return JSON.stringify(await redis.xrange(key, '-', '+'));
    default:
      return '';
  }
}

// Every message still held by every JetStream stream of the server.
export async function findInNatsStreams(url: string, needles: readonly string[]): Promise<Finding[]> {
  const connection = await connect({ servers: url });
  try {
    const manager = await jetstreamManager(connection);
    const findings: Finding[] = [];
    for await (const stream of manager.streams.list()) {
      const { first_seq: first, last_seq: last } = stream.state;
      for (let seq = first; seq > 0 && seq <= last; seq++) {
        const message = await manager.streams.getMessage(stream.config.name, { seq }).catch(() => null);
        if (message)
          findings.push(...findIn(`nats ${url}`, `${stream.config.name}#${seq}`, message.string(), needles));
      }
    }
    return findings;
  } finally {
    await connection.close();
  }
}

// Log files, whole.
export function findInFiles(files: readonly string[], needles: readonly string[]): Finding[] {
  return files.flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    return findIn('log', file, text, needles);
  });
}
