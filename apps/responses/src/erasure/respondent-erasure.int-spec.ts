import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Subjects } from '@formline/contracts';
import { LeasedJobRunner, type ResponsesPrismaClient } from '@formline/db';
import { fileKey, LocalDiskObjectStore } from '@formline/object-storage';
import { scratchResponsesDatabase, type ScratchDatabase, untilLockWaiters } from '@formline/testing';
import { ResponseRepository, type NewResponse } from '../response.repository';
import { storedJson } from '../submission/response.writer';
import { ResponseTallyRepository } from '../tallies/response-tally.repository';
import { UploadRepository } from '../uploads/upload.repository';
import { storeBytesRemover } from '../uploads/upload-bytes.fixture';
import { ErasureJobRepository, type LeasedErasureJob } from './erasure-job.repository';
import { ErasureLeaseLost, ErasureRepository } from './erasure.repository';
import { type RespondentErasureSettings, RespondentErasureBatches } from './respondent-erasure.batches';

// The right-to-be-forgotten job against a real database and file store: it
// works in bounded batches from where the job stands, deletes the responses
// that hold an address (not those that merely mention a longer one, nor
// another account's) with their uploads, bytes and outbox events at once,
// asks for their deliveries to be forgotten first; a worker that dies after
// one batch leaves a job the next worker finishes once its lease lapses,
// every response counted once; a rerun deletes nothing more; the addresses
// are gone from the job's row when it ends, and ended jobs are pruned.
const region = 'us';
const accountId = 'account-rtbf';
const otherAccount = 'account-other';
const formId = 'form-rtbf';
const batchSize = 3;

let scratch: ScratchDatabase<ResponsesPrismaClient>;
let db: ResponsesPrismaClient;
let filesDir: string;
let files: LocalDiskObjectStore;
let jobs: ErasureJobRepository;
let forgotten: string[][];

function newResponse(account: string, token: string, email: string, fileNames: string[]): NewResponse {
  const at = new Date();
  const times = { landed_at: at.toISOString(), submitted_at: at.toISOString() };
  const answers = [{ type: 'email', email, field: { id: 'email', type: 'email' } }];
  const built: NewResponse['built'] = {
    token,
    responseType: 'completed',
    landedAt: at,
    submittedAt: at,
    resource: { token, response_id: token, ...times, answers },
    event: {
      event_id: randomUUID(),
      event_type: 'form_response',
      form_response: { form_id: formId, token, ...times, answers },
      account_id: account,
    },
    searchText: email.toLowerCase(),
    answeredFields: ['email'],
  };
  return { formId, accountId: account, requestHash: 'hash', built, json: storedJson(built), fileNames };
}

// `count` responses of the account answering with `email`, the first two
// each holding an upload whose bytes are in the file store.
async function seed(
  account: string,
  email: string,
  count: number,
): Promise<{ tokens: string[]; keys: string[] }> {
  const responses = new ResponseRepository(db, new ResponseTallyRepository(db), {
    RESPONSES_FILTERED_COUNT_LIMIT: 1000,
  });
  const uploads = new UploadRepository(db);
  const tokens: string[] = [];
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const token = `${account}-${email}-${i}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
    const fileNames = i < 2 ? [`${token}.txt`] : [];
    for (const fileName of fileNames) {
      await uploads.record({ formId, fieldId: 'upload', fileName, size: 4 });
      const key = fileKey(region, formId, 'upload', fileName);
      await files.put(key, Buffer.from('data'), 'text/plain');
      keys.push(key);
    }
    await responses.insertWithEvent(newResponse(account, token, email, fileNames));
    tokens.push(token);
  }
  return { tokens, keys };
}

async function left(
  tokens: readonly string[],
): Promise<{ responses: number; outbox: number; uploads: number }> {
  const [row] = await db.$queryRaw<Array<{ responses: bigint; outbox: bigint; uploads: bigint }>>`
    SELECT (SELECT count(*) FROM responses WHERE id = ANY(${tokens}::text[])) AS responses,
           (SELECT count(*) FROM outbox_events
             WHERE payload -> 'form_response' ->> 'token' = ANY(${tokens}::text[])) AS outbox,
           (SELECT count(*) FROM uploads WHERE response_id = ANY(${tokens}::text[])
              OR file_name = ANY(${tokens.map((token) => `${token}.txt`)}::text[])) AS uploads`;
  return { responses: Number(row.responses), outbox: Number(row.outbox), uploads: Number(row.uploads) };
}

async function bytesLeft(keys: readonly string[]): Promise<number> {
  const found = await Promise.all(keys.map((key) => files.get(key)));
  return found.filter((bytes) => bytes !== undefined).length;
}

async function jobRow(id: string) {
  return db.erasureJob.findUniqueOrThrow({ where: { id } });
}

const silent = { log: () => undefined, warn: () => undefined };

function worker(extra: Partial<RespondentErasureSettings> = {}, forget?: () => Promise<void>) {
  return new RespondentErasureBatches(
    {
      jobs,
      erasure: new ErasureRepository(db),
      forgetDeliveries: async (_account, tokens) => {
        await forget?.();
        forgotten.push(tokens);
      },
      removeBytes: storeBytesRemover(files, region),
      log: silent,
    },
    { batchSize, batchBytes: 1024 * 1024, leaseMs: 500, retryMs: 60_000, maxFailures: 3, ...extra },
  );
}

const runnerOf = (work: RespondentErasureBatches) =>
  new LeasedJobRunner(work, { pauseMs: 0, intervalMs: 60_000 }, silent);

describe('right-to-be-forgotten job (responses database and file store)', () => {
  let ana: { tokens: string[]; keys: string[] };
  let longer: { tokens: string[]; keys: string[] };
  let bob: { tokens: string[]; keys: string[] };
  let elsewhere: { tokens: string[]; keys: string[] };

  beforeEach(async () => {
    scratch = await scratchResponsesDatabase();
    db = scratch.client;
    filesDir = mkdtempSync(path.join(tmpdir(), 'erasure-'));
    files = new LocalDiskObjectStore(filesDir);
    jobs = new ErasureJobRepository(db);
    forgotten = [];
    ana = await seed(accountId, 'Ana@Example.com', 7);
    // Mention "ana@example.com" in their text, hold another address: examined, kept.
    longer = await seed(accountId, 'xana@example.com', 3);
    bob = await seed(accountId, 'bob@example.com', 2);
    elsewhere = await seed(otherAccount, 'ana@example.com', 2);
  });

  afterEach(async () => {
    await scratch.dispose();
    rmSync(filesDir, { recursive: true, force: true });
  });

  async function expectOthersKept(): Promise<void> {
    expect(await left(longer.tokens)).toEqual({ responses: 3, outbox: 3, uploads: 2 });
    expect(await left(bob.tokens)).toEqual({ responses: 2, outbox: 2, uploads: 2 });
    expect(await left(elsewhere.tokens)).toEqual({ responses: 2, outbox: 2, uploads: 2 });
    expect(await bytesLeft([...longer.keys, ...bob.keys, ...elsewhere.keys])).toBe(6);
  }

  it('deletes the holders in batches with their uploads, bytes and events, and forgets the addresses at the end', async () => {
    const id = await jobs.record(accountId, ['ana@example.com']);
    expect(await jobRow(id)).toMatchObject({ state: 'queued', emails: ['ana@example.com'] });

    await runnerOf(worker()).runOnce();

    expect(await left(ana.tokens)).toEqual({ responses: 0, outbox: 0, uploads: 0 });
    expect(await bytesLeft(ana.keys)).toBe(0);
    await expectOthersKept();
    // 10 responses mention the address: 4 batches of at most 3, deliveries
    // forgotten for the holders only, batch by batch.
    expect(forgotten.every((tokens) => tokens.length <= batchSize)).toBe(true);
    expect(forgotten.flat().sort()).toEqual([...ana.tokens].sort());
    // Their deletion is announced (the webhooks service drops any delivery
    // of theirs planned after the job asked it to).
    const announced = await db.$queryRaw<Array<{ tokens: string[] }>>`
      SELECT payload -> 'response_tokens' AS tokens FROM outbox_events
       WHERE subject = ${Subjects.responsesResponsesDeleted}`;
    expect(announced.flatMap((event) => event.tokens).sort()).toEqual([...ana.tokens].sort());
    const row = await jobRow(id);
    expect(row).toMatchObject({
      state: 'done',
      emails: [],
      responsesDeleted: 7,
      filesDeleted: 2,
      leaseOwner: null,
    });
    expect(row.finishedAt).toBeInstanceOf(Date);
    expect(await jobs.find(accountId, id)).toMatchObject({ id, state: 'done', responses_deleted: 7 });
    expect(await jobs.find(otherAccount, id)).toBeUndefined();
  });

  // A respondent's save locks the response, then its uploads; a batch takes
  // them in the same order, so the two wait for each other, never deadlock.
  it('waits for a save of a holder under way, its uploads included, and erases after it', async () => {
    const holder = ana.tokens[0];
    await jobs.record(accountId, ['ana@example.com']);
    const saver = new pg.Client({ connectionString: scratch.url });
    await saver.connect();
    try {
      await saver.query('BEGIN');
      await saver.query('UPDATE responses SET landed_at = landed_at WHERE id = $1', [holder]);
      const erasing = runnerOf(worker()).runOnce();
      // Once the batch waits on a lock (the holder's, as it should).
      await untilLockWaiters(async (sql) => (await saver.query<{ waiting: number }>(sql)).rows);
      await saver.query('UPDATE uploads SET response_id = response_id WHERE response_id = $1', [holder]);
      await saver.query('COMMIT');
      await erasing;
    } finally {
      await saver.end();
    }
    expect(await left(ana.tokens)).toEqual({ responses: 0, outbox: 0, uploads: 0 });
    await expectOthersKept();
  });

  it('cuts a batch at its bytes and walks on from its last row: every holder is still found', async () => {
    const id = await jobs.record(accountId, ['ana@example.com']);
    // A budget below one response: each batch reads its first row only.
    await runnerOf(worker({ batchBytes: 1 })).runOnce();
    expect(await left(ana.tokens)).toEqual({ responses: 0, outbox: 0, uploads: 0 });
    await expectOthersKept();
    expect(forgotten.every((tokens) => tokens.length === 1)).toBe(true);
    expect(forgotten.flat().sort()).toEqual([...ana.tokens].sort());
    expect(await jobRow(id)).toMatchObject({ state: 'done', responsesDeleted: 7 });
  });

  it('survives a worker dying after one batch: the next one finishes once the lease lapses, each response counted once', async () => {
    const id = await jobs.record(accountId, ['ana@example.com']);
    const dying = worker();
    const held = (await dying.lease()) as LeasedErasureJob;
    expect(held.id).toBe(id);
    expect(await dying.workBatch(held)).toBe(true);
    expect((await left(ana.tokens)).responses).toBe(4);
    expect((await jobRow(id)).position).not.toBeNull();

    // Another worker at once finds the job held by the dead one's lease.
    const next = runnerOf(worker());
    await next.runOnce();
    expect((await left(ana.tokens)).responses).toBe(4);
    // Once the lease lapses, it carries on where the row says and finishes.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await next.runOnce();
    expect(await left(ana.tokens)).toEqual({ responses: 0, outbox: 0, uploads: 0 });
    expect(await bytesLeft(ana.keys)).toBe(0);
    expect(await jobRow(id)).toMatchObject({
      state: 'done',
      responsesDeleted: 7,
      filesDeleted: 2,
      emails: [],
    });
    await expectOthersKept();

    // The worker thought dead wakes up: its batch is refused, nothing counted.
    await expect(dying.workBatch(held)).rejects.toBeInstanceOf(ErasureLeaseLost);
    expect((await jobRow(id)).responsesDeleted).toBe(7);
  });

  it('erases a response of the address saved while the job runs, where its walk had passed already', async () => {
    const id = await jobs.record(accountId, ['ana@example.com']);
    const running = worker();
    const held = (await running.lease()) as LeasedErasureJob;
    expect(await running.workBatch(held)).toBe(true);
    expect(held.position).not.toBeNull();
    // Submitted meanwhile, its id before the job's position: the walk in id
    // order has passed it by.
    await new ResponseRepository(db, new ResponseTallyRepository(db), {
      RESPONSES_FILTERED_COUNT_LIMIT: 1000,
    }).insertWithEvent(newResponse(accountId, '0-late', 'ana@example.com', []));
    expect('0-late' < held.position!).toBe(true);

    while (await running.workBatch(held));

    expect(await db.response.count({ where: { id: '0-late' } })).toBe(0);
    expect(await left(ana.tokens)).toEqual({ responses: 0, outbox: 0, uploads: 0 });
    expect(await jobRow(id)).toMatchObject({ state: 'done', responsesDeleted: 8, emails: [] });
    await expectOthersKept();
  });

  it('is idempotent: a rerun, or the same request again, deletes nothing more', async () => {
    const first = await jobs.record(accountId, ['ana@example.com']);
    const runner = runnerOf(worker());
    await runner.runOnce();
    await runner.runOnce();
    const again = await jobs.record(accountId, ['ana@example.com']);
    await runner.runOnce();
    expect(await jobRow(first)).toMatchObject({ state: 'done', responsesDeleted: 7 });
    expect(await jobRow(again)).toMatchObject({ state: 'done', responsesDeleted: 0, filesDeleted: 0 });
    await expectOthersKept();
  });

  it('tries a failed batch again later, and ends the job as failed (addresses emptied) after too many', async () => {
    const id = await jobs.record(accountId, ['ana@example.com']);
    const failing = () => Promise.reject(new Error('webhooks service away'));
    const runner = runnerOf(worker({ retryMs: 300, maxFailures: 2 }, failing));
    await runner.runOnce();
    expect(await jobRow(id)).toMatchObject({ state: 'running', failures: 1, emails: ['ana@example.com'] });
    expect((await jobRow(id)).lastError).toContain('webhooks service away');
    // Nothing was deleted: the deliveries go first.
    expect((await left(ana.tokens)).responses).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await runner.runOnce();
    expect(await jobRow(id)).toMatchObject({ state: 'failed', failures: 2, emails: [] });
    expect((await jobRow(id)).finishedAt).toBeInstanceOf(Date);
  });

  it('prunes jobs ended before the cutoff, never one still running', async () => {
    const ended = await jobs.record(accountId, ['ana@example.com']);
    await runnerOf(worker()).runOnce();
    const running = await jobs.record(accountId, ['bob@example.com']);
    expect(await jobs.prune(new Date(Date.now() - 60_000), 10)).toBe(0);
    expect(await jobs.prune(new Date(Date.now() + 60_000), 10)).toBe(1);
    expect(await db.erasureJob.findMany({ select: { id: true } })).toEqual([{ id: running }]);
    expect(ended).not.toBe(running);
  });
});
