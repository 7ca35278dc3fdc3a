import { createPrismaAdapter, type DatabasePoolSettings } from './database-pool';
import { PrismaClient } from './generated/webhooks/client';

export { PrismaClient as WebhooksPrismaClient } from './generated/webhooks/client';

// A region's webhooks database: webhook records (webhooks service) and delivery attempts (dispatcher).
export function createWebhooksDatabase(url: string, pool?: Partial<DatabasePoolSettings>): PrismaClient {
  return new PrismaClient({ adapter: createPrismaAdapter(url, pool) });
}
export * as WebhooksDb from './generated/webhooks/client';
// The states of a delivery and the kinds of failed sends, as the database
// declares them (enums of the webhooks schema).
export { DeliveryStatus, SendFailureKind } from './generated/webhooks/enums';
