// Many callers' rows in one statement, without waiting for a batch to fill:
// a row submitted while no statement of this kind is under way goes at once,
// alone; rows submitted meanwhile gather and go together as soon as it ends
// (as a database's group commit does). Concurrent callers (the dispatcher's
// jobs, the outbox relay's publishes) thus share round trips when they are
// many and wait for none when they are few. Each caller gets its own row's
// answer, or the statement's failure. Rows of one key (one delivery) never
// share a statement: a later one waits for the next. A statement also holds
// rows of at most `limits.maxWeight` together (their bytes, say), though a
// row heavier than that still goes, alone.
export interface StatementBatchLimits<Row> {
  maxRows?: number;
  maxWeight?: number;
  weightOf?: (row: Row) => number;
}

export class StatementBatch<Row, Answer> {
  private waiting: { row: Row; resolve: (answer: Answer) => void; reject: (error: unknown) => void }[] = [];
  private busy = false;

  constructor(
    // Answers in the order of `rows`.
    private readonly run: (rows: Row[]) => Promise<Answer[]>,
    private readonly keyOf: (row: Row) => string,
    limits: StatementBatchLimits<Row> = {},
  ) {
    this.maxRows = limits.maxRows ?? 100;
    this.maxWeight = limits.maxWeight ?? Infinity;
    this.weightOf = limits.weightOf ?? (() => 0);
  }

  private readonly maxRows: number;
  private readonly maxWeight: number;
  private readonly weightOf: (row: Row) => number;

  submit(row: Row): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      if (!this.busy) void this.next();
    });
  }

  private async next(): Promise<void> {
    this.busy = true;
    while (this.waiting.length > 0) {
      const batch: typeof this.waiting = [];
      const later: typeof this.waiting = [];
      const keys = new Set<string>();
      let weight = 0;
      for (const entry of this.waiting) {
        const key = this.keyOf(entry.row);
        const rowWeight = this.weightOf(entry.row);
        const full =
          batch.length >= this.maxRows || (batch.length > 0 && weight + rowWeight > this.maxWeight);
        if (full || keys.has(key)) later.push(entry);
        else {
          keys.add(key);
          weight += rowWeight;
          batch.push(entry);
        }
      }
      this.waiting = later;
      try {
        const answers = await this.run(batch.map((entry) => entry.row));
        if (answers.length !== batch.length)
          throw new Error('a batched statement answered another number of rows');
        batch.forEach((entry, i) => entry.resolve(answers[i]));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.busy = false;
  }
}
