import type pg from 'pg';
import { type DatabasePoolSettings, keyedPoolOf, withSqlPool } from './database-pool';
import { PrismaClient } from './generated/webhooks/client';

export { PrismaClient as WebhooksPrismaClient } from './generated/webhooks/client';

// A region's webhooks database: webhook records (webhooks service) and delivery attempts (dispatcher).
export function createWebhooksDatabase(url: string, settings?: Partial<DatabasePoolSettings>): PrismaClient {
  return withSqlPool(url, settings, (adapter) => new PrismaClient({ adapter }));
}

// The pool of the keyed statements (database-pool.ts, keyedPlans) of a client
// made by createWebhooksDatabase: plain SQL that looks rows up by their keys.
export function webhooksKeyedPool(client: PrismaClient): pg.Pool {
  return keyedPoolOf(client);
}
export * as WebhooksDb from './generated/webhooks/client';
// The states of a delivery and the kinds of failed sends, as the database
// declares them (enums of the webhooks schema).
export { DeliveryStatus, SendFailureKind } from './generated/webhooks/enums';
