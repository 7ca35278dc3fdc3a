import { randomBytes } from 'node:crypto';
import {
  createGlobalDatabase,
  createResponsesDatabase,
  createWebhooksDatabase,
  type GlobalPrismaClient,
  type ResponsesPrismaClient,
  type WebhooksPrismaClient,
} from '@formline/db';
import pg from 'pg';
import { databaseUrl, testInfra } from './test-infra';

// The integration tier's databases. Each spec gets its own copy of a freshly
// migrated database (CREATE DATABASE ... TEMPLATE: a file copy, well under a
// second), so that what it relays, counts or prunes is only its own rows, and
// drops it afterwards. The copies are made from the templates of the global
// setup (test/e2e/test-databases.js), which no app ever connects to.
export type TemplateSchema = 'global' | 'responses' | 'webhooks';

export interface ScratchDatabase<Client> {
  url: string;
  client: Client;
  /** Disconnects the client and drops the database. */
  dispose(): Promise<void>;
}

export function scratchGlobalDatabase(): Promise<ScratchDatabase<GlobalPrismaClient>> {
  return scratchDatabase('global', createGlobalDatabase);
}

export function scratchResponsesDatabase(): Promise<ScratchDatabase<ResponsesPrismaClient>> {
  return scratchDatabase('responses', createResponsesDatabase);
}

export function scratchWebhooksDatabase(): Promise<ScratchDatabase<WebhooksPrismaClient>> {
  return scratchDatabase('webhooks', createWebhooksDatabase);
}

async function scratchDatabase<Client extends { $disconnect(): Promise<void> }>(
  schema: TemplateSchema,
  connect: (url: string) => Client,
): Promise<ScratchDatabase<Client>> {
  const infra = testInfra();
  const template = testDatabaseTemplates()[schema];
  const name = `formline_int_${randomBytes(6).toString('hex')}`;
  // PostgreSQL refuses to copy a template that another CREATE DATABASE is
  // reading: specs run in parallel workers take turns.
  await onServer(infra.databaseHostUrl, async (server) => {
    await server.query('SELECT pg_advisory_lock(hashtext($1))', ['formline-test-templates']);
    await server.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
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

// Empties every table of a scratch database but the migrations' own, in one
// statement: the specs of a file share its database, and each starts from
// empty tables (a TRUNCATE is milliseconds, a new copy a fraction of a second).
export async function emptyTables(client: {
  $queryRaw<T>(query: TemplateStringsArray, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string): Promise<number>;
}): Promise<void> {
  const tables = await client.$queryRaw<{ name: string }[]>`
    SELECT tablename AS name FROM pg_tables
    WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`;
  if (tables.length === 0) return;
  const names = tables.map(({ name }) => `"${name.replaceAll('"', '""')}"`).join(', ');
  await client.$executeRawUnsafe(`TRUNCATE ${names} RESTART IDENTITY CASCADE`);
}

// The template of each schema, named by the global setup.
function testDatabaseTemplates(): Record<TemplateSchema, string> {
  const templates = process.env.TEST_DATABASE_TEMPLATES;
  if (!templates) throw new Error('TEST_DATABASE_TEMPLATES is not set: run the tests through jest');
  return JSON.parse(templates) as Record<TemplateSchema, string>;
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
