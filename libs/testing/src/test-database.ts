import { randomBytes } from 'node:crypto';
import {
  createResponsesDatabase,
  createWebhooksDatabase,
  type ResponsesPrismaClient,
  type WebhooksPrismaClient,
} from '@formline/db';
import pg from 'pg';
import { databaseUrl, testInfra } from './test-infra';

// The integration tier's databases. Each spec gets its own copy of a region's
// freshly migrated database (CREATE DATABASE ... TEMPLATE: a file copy, well
// under a second), so that what it relays, counts or prunes is only its own
// rows, and drops it afterwards. The global setup (test/e2e/global-setup.js)
// makes the templates, `<database>_template`, while nothing is connected to
// the databases it copies.
export type TemplateDatabase = 'formline_responses_us' | 'formline_webhooks_us';

export interface ScratchDatabase<Client> {
  url: string;
  client: Client;
  /** Disconnects the client and drops the database. */
  dispose(): Promise<void>;
}

export function scratchResponsesDatabase(): Promise<ScratchDatabase<ResponsesPrismaClient>> {
  return scratchDatabase('formline_responses_us', createResponsesDatabase);
}

export function scratchWebhooksDatabase(): Promise<ScratchDatabase<WebhooksPrismaClient>> {
  return scratchDatabase('formline_webhooks_us', createWebhooksDatabase);
}

async function scratchDatabase<Client extends { $disconnect(): Promise<void> }>(
  template: TemplateDatabase,
  connect: (url: string) => Client,
): Promise<ScratchDatabase<Client>> {
  const infra = testInfra();
  const name = `formline_int_${randomBytes(6).toString('hex')}`;
  // PostgreSQL refuses to copy a template that another CREATE DATABASE is
  // reading: specs run in parallel workers take turns.
  await onServer(infra.databaseHostUrl, async (server) => {
    await server.query('SELECT pg_advisory_lock(hashtext($1))', ['formline-test-templates']);
    await server.query(`CREATE DATABASE "${name}" TEMPLATE "${template}_template"`);
  });
  const url = databaseUrl(infra, name);
  const client = connect(url);
  return {
    url,
    client,
    dispose: async () => {
      await client.$disconnect();
      await onServer(infra.databaseHostUrl, (server) =>
        server.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}

// One session on the server's maintenance database (its advisory locks end with it).
async function onServer(hostUrl: string, work: (server: pg.Client) => Promise<unknown>): Promise<void> {
  const server = new pg.Client({ connectionString: `${hostUrl}/postgres` });
  await server.connect();
  try {
    await work(server);
  } finally {
    await server.end();
  }
}
