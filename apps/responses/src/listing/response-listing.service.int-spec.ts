import type { ResponsesConfig } from '@formline/app-config';
import { deleteRespondentFiles, type ResponseQuery } from '@formline/contracts';
import { createResponsesDatabase, type ResponsesPrismaClient } from '@formline/db';
import { DomainError, ErrorCode } from '@formline/errors';
import type { RpcClient } from '@formline/messaging';
import { eventually, scratchResponsesDatabase, type ScratchDatabase } from '@formline/testing';
import { ResponseRepository } from '../response.repository';
import { responseAt } from '../response.fixture';
import { ResponseTallyRepository } from '../tallies/response-tally.repository';
import { UploadRepository } from '../uploads/upload.repository';
import { ResponseListingService } from './response-listing.service';

const accountId = 'account-slow-media';
const query: ResponseQuery = { sort: { field: 'submitted_at', order: 'desc' }, pageSize: 25 };

// The responses service's other half of the RPCs a deletion makes: the form
// is this account's, in this region; the media app removes the files' bytes
// only when `media` lets it (a slow media app), counting the requests.
function slowMedia() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const media = { requests: 0, release };
  const rpc = {
    request: async (contract: unknown) => {
      if (contract !== deleteRespondentFiles) return { accountId, region: 'us' };
      media.requests += 1;
      await released;
      return {};
    },
  } as unknown as RpcClient;
  return { rpc, media };
}

// A deletion holds a connection while the media app removes its files'
// bytes. With the media app slow, deletions must leave the service's other
// queries a connection: at most half the pool's are theirs.
describe('ResponseListingService.delete while the media app is slow', () => {
  let database: ScratchDatabase<ResponsesPrismaClient>;
  let db: ResponsesPrismaClient;

  beforeAll(async () => {
    database = await scratchResponsesDatabase();
    // A pool of 4, whose queries wait a second for a connection at most.
    db = createResponsesDatabase(database.url, { size: 4, acquireTimeoutMs: 1000 });
  });

  afterAll(async () => {
    await db?.$disconnect();
    await database?.dispose();
  });

  const plant = async (repository: ResponseRepository, formId: string, ids: string[]) => {
    for (const [i, id] of ids.entries()) {
      const fileName = `${id}.txt`;
      await new UploadRepository(db).record({ formId, fieldId: 'cv', fileName, size: 4 });
      const response = responseAt(
        { id, submitted: i, landed: i },
        { fileNames: [fileName] },
        { base: Date.parse('2026-03-01T12:00:00Z'), formId, accountId },
      );
      expect(await repository.insertWithEvent(response)).not.toBeNull();
    }
  };

  const serviceOf = (rpc: RpcClient, repository: ResponseRepository, waitMs: number) =>
    new ResponseListingService(rpc, repository, {
      REGION: 'us',
      DATABASE_POOL_SIZE: 4,
      DATABASE_POOL_TIMEOUT_MS: waitMs,
    } as ResponsesConfig);

  it('lists while as many deletions as the pool has connections wait on the media app', async () => {
    const repository = new ResponseRepository(db, new ResponseTallyRepository(db), {
      RESPONSES_FILTERED_COUNT_LIMIT: 1000,
    });
    const formId = 'form-listed';
    const ids = ['a', 'b', 'c', 'd'];
    await plant(repository, formId, ids);
    const { rpc, media } = slowMedia();
    const service = serviceOf(rpc, repository, 10_000);
    const deletions = ids.map((id) => service.delete(accountId, formId, [id]));
    // Two of them reach the media app, each holding a connection; the other
    // two wait in the process, holding none.
    await eventually(
      () => Promise.resolve(media.requests),
      (requests) => requests >= 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A listing still finds a connection (with every one held it would wait
    // the pool's second and fail).
    const page = await service.list(accountId, formId, query);
    expect(page.total_items).toBe(4);
    expect(media.requests).toBe(2);
    media.release();
    expect(await Promise.all(deletions)).toEqual([1, 1, 1, 1]);
    expect(await db.response.count({ where: { formId } })).toBe(0);
    expect(await db.upload.count({ where: { formId } })).toBe(0);
  });

  it('refuses a deletion 503 that waited as long as a query waits for a connection; it deleted nothing', async () => {
    const repository = new ResponseRepository(db, new ResponseTallyRepository(db), {
      RESPONSES_FILTERED_COUNT_LIMIT: 1000,
    });
    const formId = 'form-refused';
    const ids = ['e', 'f', 'g'];
    await plant(repository, formId, ids);
    const { rpc, media } = slowMedia();
    const service = serviceOf(rpc, repository, 300);
    const held = [service.delete(accountId, formId, ['e']), service.delete(accountId, formId, ['f'])];
    await eventually(
      () => Promise.resolve(media.requests),
      (requests) => requests >= 2,
    );
    const refused = await service.delete(accountId, formId, ['g']).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe(ErrorCode.ServiceUnavailable);
    media.release();
    expect(await Promise.all(held)).toEqual([1, 1]);
    expect(await db.response.findMany({ where: { formId }, select: { id: true } })).toEqual([{ id: 'g' }]);
    expect(await db.upload.count({ where: { formId } })).toBe(1);
  });
});
