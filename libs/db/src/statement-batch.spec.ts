import { StatementBatch } from './statement-batch';

// A statement that the test ends by hand, recording the batches it was given.
function manualStatement() {
  const batches: number[][] = [];
  const pending: { rows: number[]; end: (error?: Error) => void }[] = [];
  const run = (rows: number[]) => {
    batches.push(rows);
    return new Promise<string[]>((resolve, reject) => {
      pending.push({
        rows,
        end: (error) => (error ? reject(error) : resolve(rows.map((row) => `answer ${row}`))),
      });
    });
  };
  return { run, batches, endNext: (error?: Error) => pending.shift()!.end(error) };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('StatementBatch', () => {
  it('sends a lone row at once, and gathers the rows that come while a statement is under way', async () => {
    const statement = manualStatement();
    const batch = new StatementBatch(statement.run, String);
    const first = batch.submit(1);
    expect(statement.batches).toEqual([[1]]);
    const later = [2, 3, 4].map((row) => batch.submit(row));
    await settled();
    expect(statement.batches).toEqual([[1]]);
    statement.endNext();
    expect(await first).toBe('answer 1');
    await settled();
    expect(statement.batches).toEqual([[1], [2, 3, 4]]);
    statement.endNext();
    expect(await Promise.all(later)).toEqual(['answer 2', 'answer 3', 'answer 4']);
  });

  it('fails every caller of a failed statement, and only those', async () => {
    const statement = manualStatement();
    const batch = new StatementBatch(statement.run, String);
    const first = batch.submit(1);
    const second = batch.submit(2);
    statement.endNext(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    await settled();
    statement.endNext();
    expect(await second).toBe('answer 2');
  });

  it('sends at most maxRows rows a statement', async () => {
    const statement = manualStatement();
    const batch = new StatementBatch(statement.run, String, { maxRows: 2 });
    const all = [1, 2, 3, 4, 5].map((row) => batch.submit(row));
    for (let n = 0; n < 3; n++) {
      await settled();
      statement.endNext();
    }
    expect(await Promise.all(all)).toHaveLength(5);
    expect(statement.batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('holds rows of at most maxWeight together, and sends a heavier row alone', async () => {
    const statement = manualStatement();
    const batch = new StatementBatch(statement.run, String, {
      maxWeight: 10,
      weightOf: (row: number) => row,
    });
    const all = [1, 4, 5, 3, 12, 2].map((row) => batch.submit(row));
    for (let n = 0; n < 4; n++) {
      await settled();
      statement.endNext();
    }
    expect(await Promise.all(all)).toHaveLength(6);
    expect(statement.batches).toEqual([[1], [4, 5], [3, 2], [12]]);
  });

  it('waits lingerMs for rows to gather, unless maxRows are there already', async () => {
    jest.useFakeTimers();
    try {
      const statement = manualStatement();
      const batch = new StatementBatch(statement.run, String, { lingerMs: 100, maxRows: 3 });
      const first = [1, 2].map((row) => batch.submit(row));
      await jest.advanceTimersByTimeAsync(50);
      expect(statement.batches).toEqual([]);
      const third = batch.submit(3);
      // maxRows are there: the statement goes at once, before the wait is over.
      await jest.advanceTimersByTimeAsync(0);
      expect(statement.batches).toEqual([[1, 2, 3]]);
      statement.endNext();
      expect(await Promise.all([...first, third])).toEqual(['answer 1', 'answer 2', 'answer 3']);
      // Three waiting already: the next statement goes without waiting.
      const full = [4, 5, 6].map((row) => batch.submit(row));
      await jest.advanceTimersByTimeAsync(0);
      expect(statement.batches).toEqual([
        [1, 2, 3],
        [4, 5, 6],
      ]);
      statement.endNext();
      expect(await Promise.all(full)).toHaveLength(3);
      // A lone row waits the whole lingerMs, then goes.
      const lone = batch.submit(7);
      await jest.advanceTimersByTimeAsync(99);
      expect(statement.batches).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(1);
      expect(statement.batches.at(-1)).toEqual([7]);
      statement.endNext();
      expect(await lone).toBe('answer 7');
    } finally {
      jest.useRealTimers();
    }
  });

  it('never puts two rows of one key in one statement', async () => {
    const statement = manualStatement();
    const batch = new StatementBatch(statement.run, (row: number) => String(row % 10));
    const all = [1, 2, 12, 3, 22].map((row) => batch.submit(row));
    for (let n = 0; n < 4; n++) {
      await settled();
      statement.endNext();
    }
    expect(await Promise.all(all)).toHaveLength(5);
    expect(statement.batches).toEqual([[1], [2, 3], [12], [22]]);
  });
});
