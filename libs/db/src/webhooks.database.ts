import type pg from 'pg';
import { type DatabasePoolSettings, sqlPoolOf, withSqlPool } from './database-pool';
import { PrismaClient } from './generated/webhooks/client';

export { PrismaClient as WebhooksPrismaClient } from './generated/webhooks/client';

// A region's webhooks database: webhook records (webhooks service) and delivery attempts (dispatcher).
export function createWebhooksDatabase(url: string, settings?: Partial<DatabasePoolSettings>): PrismaClient {
  return withSqlPool(url, settings, (adapter) => new PrismaClient({ adapter }));
}

// The connection pool of a client made by createWebhooksDatabase, for plain SQL.
export function webhooksSqlPool(client: PrismaClient): pg.Pool {
  return sqlPoolOf(client);
}
export * as WebhooksDb from './generated/webhooks/client';
// The states of a delivery and the kinds of failed sends, as the database
// declares them (enums of the webhooks schema).
export { DeliveryStatus, SendFailureKind } from './generated/webhooks/enums';
