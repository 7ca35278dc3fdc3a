import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { createDatabasePool, type DatabasePoolSettings } from './database-pool';
import { PrismaClient } from './generated/webhooks/client';

export { PrismaClient as WebhooksPrismaClient } from './generated/webhooks/client';

// The pool under each client made here: the dispatcher's statements of every
// delivery attempt go to it as plain, prepared SQL (Prisma's runtime around a
// raw query cost the dispatcher more CPU than the query), on the same
// connections Prisma uses for everything else.
const pools = new WeakMap<PrismaClient, pg.Pool>();

// A region's webhooks database: webhook records (webhooks service) and delivery attempts (dispatcher).
export function createWebhooksDatabase(url: string, settings?: Partial<DatabasePoolSettings>): PrismaClient {
  const pool = createDatabasePool(url, settings);
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(client, pool);
  return client;
}

// The connection pool of a client made by createWebhooksDatabase (closed by its $disconnect).
export function webhooksSqlPool(client: PrismaClient): pg.Pool {
  const pool = pools.get(client);
  if (!pool) throw new Error('not a client made by createWebhooksDatabase');
  return pool;
}
export * as WebhooksDb from './generated/webhooks/client';
// The states of a delivery and the kinds of failed sends, as the database
// declares them (enums of the webhooks schema).
export { DeliveryStatus, SendFailureKind } from './generated/webhooks/enums';
