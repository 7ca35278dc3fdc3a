import type { ResponsesPrismaClient } from '@formline/db';
import { ErrorCode } from '@formline/errors';
import { emptyTables, scratchResponsesDatabase, type ScratchDatabase } from '@formline/testing';
import { UploadRepository, type StoredUpload } from './upload.repository';

const formId = 'form-uploads';

// UploadRepository against PostgreSQL: uploads are recorded as they arrive,
// held by exactly the files a response names (one response each), removed
// with their responses, and pruned with their bytes when no response held
// them for long enough, one replica at a time; bytes always go before rows,
// and rows stay when the bytes could not go.
describe('UploadRepository against PostgreSQL', () => {
  let database: ScratchDatabase<ResponsesPrismaClient>;
  let uploads: UploadRepository;

  beforeAll(async () => {
    database = await scratchResponsesDatabase();
    uploads = new UploadRepository(database.client);
  });
  afterAll(() => database?.dispose());
  beforeEach(async () => {
    await emptyTables(database.client);
    const now = new Date();
    await database.client.response.createMany({
      data: ['resp-1', 'resp-2'].map((id) => ({
        id,
        formId,
        accountId: 'account',
        landedAt: now,
        submittedAt: now,
        payload: {},
        searchText: '',
        answeredFields: [],
      })),
    });
  });

  const record = (fileName: string, form = formId) =>
    uploads.record({ formId: form, fieldId: 'cv', fileName, size: 4 });
  const holder = async (fileName: string) =>
    (await database.client.upload.findUnique({ where: { fileName } }))?.responseId;
  const attach = (responseId: string, fileNames: string[]) =>
    database.client.$transaction((tx) => UploadRepository.attach(tx, formId, responseId, fileNames));

  it("records uploads and finds the form's by name", async () => {
    await record('a.pdf');
    await record('b.pdf');
    await record('c.pdf', 'form-other');
    expect(await uploads.find(formId, ['a.pdf', 'c.pdf', 'missing.pdf'])).toEqual([
      { fileName: 'a.pdf', fieldId: 'cv', responseId: null },
    ]);
    await expect(record('a.pdf')).rejects.toMatchObject({ code: 'P2002' });
  });

  it('lets a response hold exactly the files it names, giving back those it no longer names', async () => {
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf']) await record(name);
    await attach('resp-1', ['a.pdf', 'b.pdf']);
    expect([await holder('a.pdf'), await holder('b.pdf'), await holder('c.pdf')]).toEqual([
      'resp-1',
      'resp-1',
      null,
    ]);
    // Saved again naming b and c: a goes back to the pruner.
    await attach('resp-1', ['b.pdf', 'c.pdf']);
    expect([await holder('a.pdf'), await holder('b.pdf'), await holder('c.pdf')]).toEqual([
      null,
      'resp-1',
      'resp-1',
    ]);
    await attach('resp-1', []);
    expect([await holder('b.pdf'), await holder('c.pdf')]).toEqual([null, null]);
  });

  it('refuses a file held by another response, gone, or of another form, and changes nothing', async () => {
    for (const name of ['a.pdf', 'b.pdf']) await record(name);
    await record('other.pdf', 'form-other');
    await attach('resp-1', ['a.pdf']);
    for (const names of [
      ['b.pdf', 'a.pdf'],
      ['b.pdf', 'gone.pdf'],
      ['b.pdf', 'other.pdf'],
    ]) {
      await expect(attach('resp-2', names)).rejects.toMatchObject({
        code: ErrorCode.ValidationError,
        details: [expect.objectContaining({ code: 'FILE_NOT_UPLOADED' })],
      });
    }
    expect([await holder('a.pdf'), await holder('b.pdf')]).toEqual(['resp-1', null]);
  });

  it('removes the uploads of the responses deleted, bytes first', async () => {
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf']) await record(name);
    await attach('resp-1', ['a.pdf', 'b.pdf']);
    await attach('resp-2', ['c.pdf']);
    const removed: StoredUpload[][] = [];
    const count = await database.client.$transaction((tx) =>
      UploadRepository.removeOfResponses(tx, ['resp-1', 'no-such-response'], (rows) => {
        removed.push(rows);
        return Promise.resolve();
      }),
    );
    expect(count).toBe(2);
    expect(
      removed
        .flat()
        .map((row) => row.fileName)
        .sort(),
    ).toEqual(['a.pdf', 'b.pdf']);
    expect(removed.flat()[0]).toEqual({ fileName: expect.any(String), formId, fieldId: 'cv' });
    expect((await database.client.upload.findMany()).map((row) => row.fileName)).toEqual(['c.pdf']);
    expect(
      await database.client.$transaction((tx) =>
        UploadRepository.removeOfResponses(tx, [], () => Promise.reject(new Error('never'))),
      ),
    ).toBe(0);
  });

  describe('pruneUnattached', () => {
    const cutoff = new Date('2026-06-01T00:00:00Z');
    beforeEach(async () => {
      // Four unattached before the cutoff (old-1 the oldest), one after, one held.
      for (const [name, day] of [
        ['old-3.pdf', 3],
        ['old-1.pdf', 1],
        ['old-2.pdf', 2],
        ['old-4.pdf', 4],
        ['new.pdf', 40],
        ['held.pdf', 1],
      ] as const) {
        await record(name);
        await database.client.upload.update({
          where: { fileName: name },
          data: { createdAt: new Date(Date.UTC(2026, 4, day)) },
        });
      }
      await attach('resp-1', ['held.pdf']);
    });
    const left = async () =>
      (await database.client.upload.findMany({ orderBy: { fileName: 'asc' } })).map((row) => row.fileName);

    it('prunes the oldest unattached uploads before the cutoff, a batch at a time, bytes first', async () => {
      const batches: string[][] = [];
      const removeBytes = (rows: StoredUpload[]) => {
        batches.push(rows.map((row) => row.fileName));
        return Promise.resolve();
      };
      expect(await uploads.pruneUnattached(cutoff, 3, removeBytes)).toBe(3);
      expect(await uploads.pruneUnattached(cutoff, 3, removeBytes)).toBe(1);
      expect(await uploads.pruneUnattached(cutoff, 3, removeBytes)).toBe(0);
      expect(batches).toEqual([['old-1.pdf', 'old-2.pdf', 'old-3.pdf'], ['old-4.pdf']]);
      expect(await left()).toEqual(['held.pdf', 'new.pdf']);
    });

    it('keeps the rows when their bytes could not be removed', async () => {
      await expect(
        uploads.pruneUnattached(cutoff, 10, () => Promise.reject(new Error('store away'))),
      ).rejects.toThrow('store away');
      expect(await left()).toHaveLength(6);
    });

    it('prunes on one replica at a time: another finds the lock taken and prunes nothing', async () => {
      let release!: () => void;
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const first = uploads.pruneUnattached(cutoff, 10, () => {
        started();
        return new Promise<void>((resolve) => (release = resolve));
      });
      await running;
      expect(await uploads.pruneUnattached(cutoff, 10, () => Promise.resolve())).toBe(0);
      release();
      expect(await first).toBe(4);
    });
  });
});
