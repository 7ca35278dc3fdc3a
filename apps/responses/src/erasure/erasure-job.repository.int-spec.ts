import { ErasureJobState } from '@formline/contracts';
import type { ResponsesPrismaClient } from '@formline/db';
import { emptyTables, scratchResponsesDatabase, type ScratchDatabase } from '@formline/testing';
import { ErasureJobRepository } from './erasure-job.repository';

const minute = 60_000;

// ErasureJobRepository against PostgreSQL: jobs are the account's to read,
// leased to one worker at a time oldest first, advanced only by the worker
// holding the lease, ended by their last batch or by failures in a row
// (their addresses emptied either way), and pruned once ended long enough.
describe('ErasureJobRepository against PostgreSQL', () => {
  let database: ScratchDatabase<ResponsesPrismaClient>;
  let jobs: ErasureJobRepository;

  beforeAll(async () => {
    database = await scratchResponsesDatabase();
    jobs = new ErasureJobRepository(database.client);
  });
  afterAll(() => database?.dispose());
  beforeEach(() => emptyTables(database.client));

  // Jobs recorded in this order, a second apart.
  const recordInOrder = async (...accounts: string[]) => {
    const ids: string[] = [];
    for (const [second, accountId] of accounts.entries()) {
      const id = await jobs.record(accountId, [`${accountId}@example.com`]);
      await database.client.erasureJob.update({
        where: { id },
        data: { createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)) },
      });
      ids.push(id);
    }
    return ids;
  };
  const row = (id: string) => database.client.erasureJob.findUniqueOrThrow({ where: { id } });
  const batch = (
    jobId: string,
    owner: string,
    step: { done: boolean; responses?: number; position?: string },
  ) =>
    database.client.$transaction(async (tx) => {
      if (!(await ErasureJobRepository.holds(tx, jobId, owner))) return false;
      await ErasureJobRepository.advance(tx, {
        jobId,
        position: step.position ?? null,
        responses: step.responses ?? 1,
        files: 1,
        done: step.done,
        leaseMs: minute,
      });
      return true;
    });

  it('records a job and shows it to its account only', async () => {
    const [id] = await recordInOrder('account-a');
    expect(await jobs.find('account-a', id)).toEqual({
      id,
      account_id: 'account-a',
      state: ErasureJobState.Queued,
      responses_deleted: 0,
      files_deleted: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      finished_at: null,
    });
    expect(await jobs.find('account-b', id)).toBeUndefined();
    expect(await jobs.find('account-a', 'no-such-job')).toBeUndefined();
  });

  it('leases the oldest free job to one worker at a time, and again once its lease lapses', async () => {
    const [first, second] = await recordInOrder('account-a', 'account-b');
    expect(await jobs.lease('worker-1', minute)).toEqual({
      id: first,
      accountId: 'account-a',
      emails: ['account-a@example.com'],
      position: null,
    });
    expect((await jobs.lease('worker-2', 1000))?.id).toBe(second);
    expect(await jobs.lease('worker-3', minute)).toBeUndefined();
    // worker-2's lease of a second lapses: the job is taken over.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await jobs.lease('worker-3', minute))?.id).toBe(second);
    expect(await row(second)).toMatchObject({ leaseOwner: 'worker-3', state: ErasureJobState.Running });
  });

  it('counts a batch only for the worker holding the lease, and ends the job with its last', async () => {
    const [id] = await recordInOrder('account-a');
    await jobs.lease('worker-1', minute);
    expect(await batch(id, 'worker-2', { done: false })).toBe(false);
    expect(await batch(id, 'worker-1', { done: false, responses: 3, position: 'resp-9' })).toBe(true);
    expect(await row(id)).toMatchObject({ position: 'resp-9', responsesDeleted: 3, filesDeleted: 1 });

    expect(await batch(id, 'worker-1', { done: true, responses: 2 })).toBe(true);
    expect(await row(id)).toMatchObject({
      state: ErasureJobState.Done,
      responsesDeleted: 5,
      filesDeleted: 2,
      emails: [],
      leaseOwner: null,
      finishedAt: expect.any(Date),
    });
    // Ended: no worker holds it or leases it again.
    expect(await batch(id, 'worker-1', { done: false })).toBe(false);
    expect(await jobs.lease('worker-2', minute)).toBeUndefined();
  });

  it('retries a failed batch after its time, by any worker, and fails the job after failures in a row', async () => {
    const [id] = await recordInOrder('account-a');
    await jobs.lease('worker-1', minute);
    const past = new Date(Date.now() - minute);
    expect(await jobs.recordFailure(id, 'worker-2', 'not mine', past, 2)).toBeUndefined();
    expect(await jobs.recordFailure(id, 'worker-1', 'x'.repeat(600), past, 2)).toBe(ErasureJobState.Running);
    expect(await row(id)).toMatchObject({ failures: 1, leaseOwner: null, lastError: 'x'.repeat(500) });

    // Free again (its retry time passed): another worker takes it, a success resets the count.
    expect((await jobs.lease('worker-2', minute))?.id).toBe(id);
    expect(await batch(id, 'worker-2', { done: false })).toBe(true);
    expect(await row(id)).toMatchObject({ failures: 0 });

    await jobs.recordFailure(id, 'worker-2', 'first', past, 2);
    await jobs.lease('worker-3', minute);
    expect(await jobs.recordFailure(id, 'worker-3', 'second', past, 2)).toBe(ErasureJobState.Failed);
    expect(await row(id)).toMatchObject({
      state: ErasureJobState.Failed,
      emails: [],
      finishedAt: expect.any(Date),
    });
    expect(await jobs.lease('worker-4', minute)).toBeUndefined();
  });

  it('waits for the retry time of a failed batch', async () => {
    const [id] = await recordInOrder('account-a');
    await jobs.lease('worker-1', minute);
    await jobs.recordFailure(id, 'worker-1', 'later', new Date(Date.now() + minute), 5);
    expect(await jobs.lease('worker-2', minute)).toBeUndefined();
  });

  it("frees a job at once when its worker stops, and not for another's release", async () => {
    const [id] = await recordInOrder('account-a');
    await jobs.lease('worker-1', minute);
    await jobs.release(id, 'worker-2');
    expect(await jobs.lease('worker-2', minute)).toBeUndefined();
    await jobs.release(id, 'worker-1');
    expect((await jobs.lease('worker-2', minute))?.id).toBe(id);
  });

  it('prunes jobs ended before the cutoff, oldest first, a batch at a time', async () => {
    const ids = await recordInOrder('a', 'b', 'c', 'd');
    const ended = (id: string, day: number) =>
      database.client.erasureJob.update({
        where: { id },
        data: { state: ErasureJobState.Done, finishedAt: new Date(Date.UTC(2026, 0, day)) },
      });
    await ended(ids[0], 3);
    await ended(ids[1], 1);
    await ended(ids[2], 20);
    const cutoff = new Date(Date.UTC(2026, 0, 10));
    expect(await jobs.prune(cutoff, 1)).toBe(1);
    expect(await database.client.erasureJob.count({ where: { id: ids[1] } })).toBe(0);
    expect(await jobs.prune(cutoff, 10)).toBe(1);
    expect(await jobs.prune(cutoff, 10)).toBe(0);
    // The one ended after the cutoff and the one still queued stay.
    expect((await database.client.erasureJob.findMany()).map((job) => job.id).sort()).toEqual(
      [ids[2], ids[3]].sort(),
    );
  });
});
