import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Streams } from '@formline/contracts';
import type { GlobalPrismaClient } from '@formline/db';
import {
  createTestAccount,
  eventually,
  freePort,
  readStreamEvents,
  testGlobalDatabase,
  testInfra,
  TestNatsServer,
} from '@formline/testing';
import type { GlobalConfig } from '@formline/app-config';
import { FormRepository } from '../form.repository';
import { FormDeletionRelayJob } from './form-deletion-relay.job';
import { FormDeletionRepository } from './form-deletion.repository';

// The global service's side of a form's purge, against the real global
// database and a NATS server of the spec's own: the delete writes its
// deletion in the same transaction; the relay of the form's region (and only
// that one) publishes it to the region's FORMS stream, with its consumers
// made first, then deletes the row; relayed again (a crash between publish
// and delete), JetStream keeps one message.
describe('form deletion relay', () => {
  const natsDir = path.join(testInfra().dataDir, `int-form-deletion-nats-${randomUUID()}`);
  let natsServer: TestNatsServer;
  let nats: NatsConnection;
  let db: GlobalPrismaClient;

  beforeAll(async () => {
    natsServer = new TestNatsServer(await freePort(), natsDir);
    await natsServer.start();
    nats = await connect({ servers: natsServer.url });
    db = testGlobalDatabase();
  });

  afterAll(async () => {
    await nats?.close();
    await db?.$disconnect();
    await natsServer?.stop();
    rmSync(natsDir, { recursive: true, force: true });
  });

  const relayOf = (region: 'us' | 'eu') =>
    new FormDeletionRelayJob(new FormDeletionRepository(db), nats, {
      REGION: region,
      FORM_DELETION_PUBLISH_TIMEOUT_MS: 5000,
      FORM_DELETION_RELAY_INTERVAL_MS: 3_600_000,
    } as GlobalConfig);

  it('publishes a deleted form to its own region only, once, with both consumers waiting for it', async () => {
    const account = await createTestAccount(db, 'eu');
    expect(
      await new FormRepository(db, { DATABASE_POOL_SIZE: 10, DATABASE_POOL_TIMEOUT_MS: 2000 }).delete(
        account.accountId,
        account.formId,
        'eu',
      ),
    ).toBe(true);
    expect(await db.form.count({ where: { id: account.formId } })).toBe(0);
    const [deletion] = await db.formDeletion.findMany({ where: { formId: account.formId } });
    expect(deletion).toMatchObject({ accountId: account.accountId, region: 'eu' });

    // The US relay leaves it alone (its shutdown waits for the run its start began).
    const us = relayOf('us');
    us.onApplicationBootstrap();
    await us.onApplicationShutdown();
    expect(await db.formDeletion.count({ where: { id: deletion.id } })).toBe(1);

    const eu = relayOf('eu');
    const left = () => db.formDeletion.count({ where: { id: deletion.id } });
    eu.onApplicationBootstrap();
    expect(await eventually(left, (count) => count === 0)).toBe(0);
    const events = await readStreamEvents(natsServer.url, Streams.forms.name);
    const mine = events.filter((event) => event.data.form_id === account.formId);
    expect(mine).toEqual([
      {
        messageId: deletion.id,
        requestId: undefined,
        data: {
          event_id: deletion.id,
          form_id: account.formId,
          account_id: account.accountId,
          deleted_at: deletion.deletedAt.toISOString(),
        },
      },
    ]);

    // A relay that died after publishing, before deleting the row, publishes it again: one message.
    await db.formDeletion.create({ data: deletion });
    eu.nudge();
    expect(await eventually(left, (count) => count === 0)).toBe(0);
    await eu.onApplicationShutdown();
    const again = await readStreamEvents(natsServer.url, Streams.forms.name);
    expect(again.filter((event) => event.data.form_id === account.formId)).toHaveLength(1);
    // Kept for both services' consumers, neither of which has taken it yet.
    const consumers = Object.values(Streams.forms.consumers);
    const manager = await jetstreamManager(nats);
    for (const name of consumers)
      expect((await manager.consumers.info(Streams.forms.name, name)).num_pending).toBeGreaterThan(0);
  });
});
