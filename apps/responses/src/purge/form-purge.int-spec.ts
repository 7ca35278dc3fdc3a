import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Subjects } from '@formline/contracts';
import { FormPurgeRunner, type FormPurgeSettings, type FormPurgeStep } from '@formline/db';
import { fileKey, LocalDiskObjectStore } from '@formline/object-storage';
import { scratchResponsesDatabase, type ScratchDatabase } from '@formline/testing';
import type { ResponsesPrismaClient } from '@formline/db';
import { ResponseRepository, type NewResponse } from '../response.repository';
import { ResponseTallyRepository } from '../tallies/response-tally.repository';
import { storedJson } from '../submission/response.writer';
import { UploadRepository } from '../uploads/upload.repository';
import { storeBytesRemover } from '../uploads/upload-bytes.fixture';
import { formPurgeSteps } from './form-purge.job';
import { FormPurgeRepository } from './form-purge.repository';

// The responses service's form purge against a real database and file store:
// a deleted form's responses, outbox events, uploads and their bytes go, in
// bounded batches; a worker that dies mid-way (after one batch) leaves a
// purge the next worker finishes once its lease lapses, every row deleted
// exactly once; a rerun or a redelivered deletion deletes nothing more; and
// another form's data is never touched.
const region = 'us';
const purged = 'form-purged';
const kept = 'form-kept';
const accountId = 'account-purge';
const responsesOfPurged = 23;
const batchSize = 5;

let scratch: ScratchDatabase<ResponsesPrismaClient>;
let db: ResponsesPrismaClient;
let filesDir: string;
let files: LocalDiskObjectStore;
let purges: FormPurgeRepository;

function newResponse(formId: string, token: string, fileNames: string[] = []): NewResponse {
  const at = new Date();
  const times = { landed_at: at.toISOString(), submitted_at: at.toISOString() };
  const built: NewResponse['built'] = {
    token,
    responseType: 'completed',
    landedAt: at,
    submittedAt: at,
    // One answer Insights distributes: the form's tallies hold its counts too.
    resource: {
      token,
      response_id: token,
      ...times,
      answers: [
        {
          field: { id: 'plan', ref: 'plan', type: 'dropdown' },
          type: 'choice',
          choice: { id: 'free', ref: 'free', label: 'Free' },
        },
      ],
    },
    event: {
      event_id: randomUUID(),
      event_type: 'form_response',
      form_response: { form_id: formId, token, ...times },
      account_id: accountId,
    },
    searchText: token,
    answeredFields: [],
  };
  return { formId, accountId, requestHash: 'hash', built, json: storedJson(built), fileNames };
}

function responsesOf(client: ResponsesPrismaClient): ResponseRepository {
  return new ResponseRepository(client, new ResponseTallyRepository(client), {
    RESPONSES_FILTERED_COUNT_LIMIT: 1000,
  });
}

// Responses (each with its outbox event), and uploads: some held by a
// response, one held by none; the bytes of each in the file store.
async function seed(formId: string, responses: number): Promise<{ tokens: string[]; keys: string[] }> {
  const repository = responsesOf(db);
  const uploads = new UploadRepository(db);
  const tokens: string[] = [];
  const keys: string[] = [];
  for (let i = 0; i < responses; i++) {
    const token = `${formId}-r${i}`;
    const fileNames = i < 3 ? [`${formId}-file${i}.txt`] : [];
    for (const fileName of [...fileNames, ...(i === 0 ? [`${formId}-loose.txt`] : [])]) {
      await uploads.record({ formId, fieldId: 'upload', fileName, size: 4 });
      const key = fileKey(region, formId, 'upload', fileName);
      await files.put(key, Buffer.from('data'), 'text/plain');
      keys.push(key);
    }
    await repository.insertWithEvent(newResponse(formId, token, fileNames));
    tokens.push(token);
  }
  return { tokens, keys };
}

async function rowsOf(formId: string): Promise<{ responses: number; outbox: number; uploads: number }> {
  const [row] = await db.$queryRaw<Array<{ responses: bigint; outbox: bigint; uploads: bigint }>>`
    SELECT (SELECT count(*) FROM responses WHERE form_id = ${formId}) AS responses,
           (SELECT count(*) FROM outbox_events
             WHERE payload -> 'form_response' ->> 'form_id' = ${formId}) AS outbox,
           (SELECT count(*) FROM uploads WHERE form_id = ${formId}) AS uploads`;
  return { responses: Number(row.responses), outbox: Number(row.outbox), uploads: Number(row.uploads) };
}

async function tallyRowsOf(formId: string, tallies?: string[]): Promise<number> {
  const rows = await db.$queryRaw<Array<{ tally: string }>>`
    SELECT tally FROM response_tallies WHERE form_id = ${formId}`;
  return rows.filter((row) => !tallies || tallies.includes(row.tally)).length;
}

async function bytesLeft(keys: readonly string[]): Promise<number> {
  const found = await Promise.all(keys.map((key) => files.get(key)));
  return found.filter((bytes) => bytes !== undefined).length;
}

// The steps, counting what each batch deleted; `crashAfter` batches in, the
// next batch throws as a dying worker would stop (its lease kept).
function countingSteps(counts: Map<string, number>, crashAfter = Infinity): FormPurgeStep[] {
  let batches = 0;
  return formPurgeSteps(purges, storeBytesRemover(files, region)).map((step) => ({
    name: step.name,
    purgeBatch: async (formId, size) => {
      if (batches++ >= crashAfter) throw new Error('worker died');
      const deleted = await step.purgeBatch(formId, size);
      counts.set(step.name, (counts.get(step.name) ?? 0) + deleted);
      return deleted;
    },
  }));
}

const silent = { log: () => undefined, warn: () => undefined };
const settings = (extra: Partial<FormPurgeSettings> = {}): FormPurgeSettings => ({
  batchSize,
  pauseMs: 0,
  intervalMs: 60_000,
  settleMs: 0,
  leaseMs: 500,
  ...extra,
});
const deletion = (formId: string) => ({ formId, accountId, deletedAt: new Date() });

describe('form purge (responses database and file store)', () => {
  beforeEach(async () => {
    scratch = await scratchResponsesDatabase();
    db = scratch.client;
    filesDir = mkdtempSync(path.join(tmpdir(), 'form-purge-'));
    files = new LocalDiskObjectStore(filesDir);
    purges = new FormPurgeRepository(db);
  });

  afterEach(async () => {
    await scratch.dispose();
    rmSync(filesDir, { recursive: true, force: true });
  });

  it('survives a worker dying after one batch: the next one finishes, every row deleted exactly once', async () => {
    const gone = await seed(purged, responsesOfPurged);
    const other = await seed(kept, 4);
    const before = await rowsOf(purged);
    expect(before).toEqual({ responses: responsesOfPurged, outbox: responsesOfPurged, uploads: 4 });
    expect(await tallyRowsOf(purged, ['answers', 'answer'])).toBeGreaterThan(0);
    // The deletion, consumed twice (a redelivery): one purge.
    await purges.table.request(deletion(purged));
    await purges.table.request(deletion(purged));
    expect(await purges.table.pending()).toEqual([{ formId: purged, purged: 0 }]);

    const counts = new Map<string, number>();
    const dying = new FormPurgeRunner(purges.table, countingSteps(counts, 1), settings(), silent);
    await dying.runOnce();
    // One batch done: the form's 4 uploads (one batch of 5 takes them all).
    expect(counts.get('uploads')).toBe(4);
    expect(await rowsOf(purged)).toEqual({
      responses: responsesOfPurged,
      outbox: responsesOfPurged,
      uploads: 0,
    });
    expect(await bytesLeft(gone.keys)).toBe(0);

    // Another worker at once finds the purge held by the dead one's lease.
    const next = new FormPurgeRunner(purges.table, countingSteps(counts), settings(), silent);
    await next.runOnce();
    expect((await rowsOf(purged)).responses).toBe(responsesOfPurged);
    // Once the lease lapses, it carries on where the rows say and finishes.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await next.runOnce();
    expect(await rowsOf(purged)).toEqual({ responses: 0, outbox: 0, uploads: 0 });
    expect(await purges.table.pending()).toEqual([]);
    expect(Object.fromEntries(counts)).toEqual({
      uploads: 4,
      outbox_events: responsesOfPurged,
      responses: responsesOfPurged,
      response_tallies: expect.any(Number),
    });
    // The form's running tallies go last, once its responses have left them at zero.
    expect(await tallyRowsOf(purged)).toBe(0);
    expect(await tallyRowsOf(kept)).toBeGreaterThan(0);

    // The other form is untouched.
    expect(await rowsOf(kept)).toEqual({ responses: 4, outbox: 4, uploads: 4 });
    expect(await bytesLeft(other.keys)).toBe(4);
    const left = await db.response.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
    expect(left.map((row) => row.id)).toEqual([...other.tokens].sort());
  });

  it('is idempotent: a rerun, or the deletion delivered again after it finished, deletes nothing more', async () => {
    await seed(purged, 7);
    const other = await seed(kept, 2);
    await purges.table.request(deletion(purged));
    const counts = new Map<string, number>();
    const runner = new FormPurgeRunner(purges.table, countingSteps(counts), settings(), silent);
    await runner.runOnce();
    expect(await rowsOf(purged)).toEqual({ responses: 0, outbox: 0, uploads: 0 });
    const first = Object.fromEntries(counts);

    await runner.runOnce();
    await purges.table.request(deletion(purged));
    await runner.runOnce();
    expect(Object.fromEntries(counts)).toEqual(first);
    expect(await purges.table.pending()).toEqual([]);
    expect(await rowsOf(kept)).toEqual({ responses: 2, outbox: 2, uploads: 3 });
    expect(await bytesLeft(other.keys)).toBe(3);
  });

  it('ends only after the settle time: a response written after a pass is purged too', async () => {
    await seed(purged, 3);
    await purges.table.request(deletion(purged));
    const runner = new FormPurgeRunner(
      purges.table,
      countingSteps(new Map()),
      settings({ settleMs: 800 }),
      silent,
    );
    await runner.runOnce();
    expect((await rowsOf(purged)).responses).toBe(0);
    // Still recorded: a submission under way when the form was deleted lands now.
    expect(await purges.table.pending()).toHaveLength(1);
    await responsesOf(db).insertWithEvent(newResponse(purged, 'late'));
    await runner.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 900));
    await runner.runOnce();
    expect(await rowsOf(purged)).toEqual({ responses: 0, outbox: 0, uploads: 0 });
    expect(await purges.table.pending()).toEqual([]);
  });

  it("purges the outbox events of a form whose events were never published, its deleted responses' too", async () => {
    const { tokens } = await seed(purged, 3);
    // One response deleted: its submission event gives way to the event
    // announcing the deletion, which names the form and the token.
    await responsesOf(db).delete(accountId, purged, [tokens[0]], () => Promise.resolve());
    const subjects = await db.outboxEvent.groupBy({
      by: ['subject'],
      where: { publishedAt: null },
      _count: true,
      orderBy: { subject: 'asc' },
    });
    expect(Object.fromEntries(subjects.map((row) => [row.subject, row._count]))).toEqual({
      [Subjects.responsesResponseSubmitted]: 2,
      [Subjects.responsesResponsesDeleted]: 1,
    });
    await purges.table.request(deletion(purged));
    await new FormPurgeRunner(
      purges.table,
      formPurgeSteps(purges, storeBytesRemover(files, region)),
      settings(),
      silent,
    ).runOnce();
    expect(await db.outboxEvent.count()).toBe(0);
  });
});
