import type { ResponsesPrismaClient } from '@formline/db';
import { DependencyUnavailableError } from '@formline/errors';
import { OutboxRepository } from './outbox.repository';

// How the relay's read of payloads tells a row PostgreSQL cannot render
// (that row's fault, counted against it) from the database being away (no
// row's fault). The database is a fake: each read answers from `answer`.
function storeAnswering(answer: (ids: string[]) => unknown[] | Error): {
  store: OutboxRepository;
  reads: string[][];
} {
  const reads: string[][] = [];
  const db = {
    $queryRaw: (_sql: TemplateStringsArray, ids: string[]) => {
      reads.push(ids);
      const result = answer(ids);
      return result instanceof Error ? Promise.reject(result) : Promise.resolve(result);
    },
  } as unknown as ResponsesPrismaClient;
  return { store: new OutboxRepository(db), reads };
}

const away = () =>
  new DependencyUnavailableError('PostgreSQL', {
    cause: new Error('timeout exceeded when trying to connect'),
  });
const payloadOf = (id: string) => ({ id, subject: 's', payload: '{}', requestId: null });

describe('OutboxRepository.read', () => {
  it('reads row by row when the batch read fails on a row, and names the unreadable one', async () => {
    const { store } = storeAnswering((ids) =>
      ids.includes('bad') ? new Error('invalid input syntax (22P02)') : ids.map(payloadOf),
    );
    const { rows, unreadable } = await store.read(['a', 'bad', 'b']);
    expect(rows.map((row) => row.id)).toEqual(['a', 'b']);
    expect(unreadable.map((row) => row.id)).toEqual(['bad']);
  });

  it('fails the whole read when the database is away, blaming no row and without reading row by row', async () => {
    const { store, reads } = storeAnswering(() => away());
    await expect(store.read(['a', 'b', 'c'])).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(reads).toHaveLength(1);
  });

  it('fails the whole read when the database goes away during the row by row reads', async () => {
    let calls = 0;
    const { store } = storeAnswering((ids) => {
      calls++;
      if (calls === 1) return new Error('invalid input syntax (22P02)');
      return calls === 2 ? ids.map(payloadOf) : away();
    });
    await expect(store.read(['a', 'b', 'c'])).rejects.toBeInstanceOf(DependencyUnavailableError);
  });
});

describe('OutboxRepository.runsOfBytes', () => {
  it('cuts the claimed rows into runs by their stored bytes, in their order', async () => {
    const { store } = storeAnswering(() => [
      { id: 'a', bytes: 5 },
      { id: 'b', bytes: 5 },
      { id: 'c', bytes: 20 },
    ]);
    // A row gone meanwhile weighs nothing; one over the bound goes alone.
    expect(await store.runsOfBytes(['a', 'gone', 'b', 'c'], 10)).toEqual([['a', 'gone', 'b'], ['c']]);
  });

  it('makes each row a run of its own when a payload cannot be measured, so its read names it', async () => {
    const { store } = storeAnswering(() => new Error('invalid input syntax (22P02)'));
    expect(await store.runsOfBytes(['a', 'bad', 'b'], 10)).toEqual([['a'], ['bad'], ['b']]);
  });

  it('fails when the database is away, blaming no row', async () => {
    const { store } = storeAnswering(() => away());
    await expect(store.runsOfBytes(['a', 'b'], 10)).rejects.toBeInstanceOf(DependencyUnavailableError);
  });
});
