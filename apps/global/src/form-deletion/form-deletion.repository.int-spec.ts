import type { GlobalPrismaClient } from '@formline/db';
import { emptyTables, scratchGlobalDatabase, type ScratchDatabase } from '@formline/testing';
import { FormDeletionRepository, type PendingFormDeletion } from './form-deletion.repository';

// FormDeletionRepository against PostgreSQL: a relay claims its region's
// deletions oldest first, a batch at a time, never rows another relay holds;
// only the rows it published are deleted, and none when publishing throws.
describe('FormDeletionRepository against PostgreSQL', () => {
  let database: ScratchDatabase<GlobalPrismaClient>;
  let deletions: FormDeletionRepository;

  beforeAll(async () => {
    database = await scratchGlobalDatabase();
    deletions = new FormDeletionRepository(database.client);
  });
  afterAll(() => database?.dispose());
  beforeEach(async () => {
    await emptyTables(database.client);
    // EU deletions on days 3, 1, 2 and 4, and one in the US.
    await database.client.formDeletion.createMany({
      data: [
        ['d3', 'eu', 3],
        ['d1', 'eu', 1],
        ['d2', 'eu', 2],
        ['d4', 'eu', 4],
        ['us1', 'us', 1],
      ].map(([id, region, day]) => ({
        id: id as string,
        formId: `form-${id}`,
        accountId: 'account',
        region: region as 'eu' | 'us',
        deletedAt: new Date(Date.UTC(2026, 0, day as number)),
      })),
    });
  });
  const left = async () =>
    (await database.client.formDeletion.findMany({ orderBy: { id: 'asc' } })).map((row) => row.id);
  const ids = (rows: PendingFormDeletion[]) => rows.map((row) => row.id);

  it("claims the region's oldest deletions a batch at a time, and deletes those published", async () => {
    const seen: string[][] = [];
    const publishAll = (rows: PendingFormDeletion[]) => {
      seen.push(ids(rows));
      return Promise.resolve(ids(rows));
    };
    expect(await deletions.withClaimedBatch('eu', 3, 5000, publishAll)).toEqual({ claimed: 3, published: 3 });
    expect(await deletions.withClaimedBatch('eu', 3, 5000, publishAll)).toEqual({ claimed: 1, published: 1 });
    expect(await deletions.withClaimedBatch('eu', 3, 5000, publishAll)).toEqual({ claimed: 0, published: 0 });
    expect(seen).toEqual([['d1', 'd2', 'd3'], ['d4']]);
    expect(await left()).toEqual(['us1']);
  });

  it('hands each row with its form, account and time', async () => {
    let claimed: PendingFormDeletion[] = [];
    await deletions.withClaimedBatch('us', 10, 5000, (rows) => {
      claimed = rows;
      return Promise.resolve([]);
    });
    expect(claimed).toEqual([
      { id: 'us1', formId: 'form-us1', accountId: 'account', deletedAt: new Date(Date.UTC(2026, 0, 1)) },
    ]);
  });

  it('keeps what was not published, and everything when publishing throws', async () => {
    expect(await deletions.withClaimedBatch('eu', 10, 5000, () => Promise.resolve(['d2']))).toEqual({
      claimed: 4,
      published: 1,
    });
    expect(await left()).toEqual(['d1', 'd3', 'd4', 'us1']);
    await expect(
      deletions.withClaimedBatch('eu', 10, 5000, () => Promise.reject(new Error('NATS away'))),
    ).rejects.toThrow('NATS away');
    expect(await left()).toEqual(['d1', 'd3', 'd4', 'us1']);
  });

  it('never hands a row to two relays at once', async () => {
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const first = deletions.withClaimedBatch('eu', 2, 5000, async (rows) => {
      holding();
      await new Promise<void>((resolve) => (release = resolve));
      return ids(rows);
    });
    await held;
    let second: string[] = [];
    await deletions.withClaimedBatch('eu', 10, 5000, (rows) => {
      second = ids(rows);
      return Promise.resolve([]);
    });
    release();
    expect(await first).toEqual({ claimed: 2, published: 2 });
    expect(second).toEqual(['d3', 'd4']);
  });
});
