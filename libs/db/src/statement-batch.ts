// Many callers' rows in one statement, without waiting for a batch to fill:
// a row submitted while no statement of this kind is under way goes at once,
// alone; rows submitted meanwhile gather and go together as soon as it ends
// (as a database's group commit does). Concurrent callers (the dispatcher's
// jobs, the outbox relay's publishes) thus share round trips when they are
// many and wait for none when they are few. Each caller gets its own row's
// answer, or the statement's failure. Rows of one key (one delivery) never
// share a statement: a later one waits for the next. A statement also holds
// rows of at most `limits.maxWeight` together (their bytes, say), though a
// row heavier than that still goes, alone. A statement whose callers need not
// hear soon (`limits.lingerMs`) waits that long for rows to gather before it
// goes, unless `maxRows` are there already.
export interface StatementBatchLimits<Row> {
  maxRows?: number;
  maxWeight?: number;
  weightOf?: (row: Row) => number;
  lingerMs?: number;
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
    this.lingerMs = limits.lingerMs ?? 0;
  }

  private readonly maxRows: number;
  private readonly maxWeight: number;
  private readonly weightOf: (row: Row) => number;
  private readonly lingerMs: number;
  // Ends the current wait for rows at once (maxRows have come).
  private endLinger?: () => void;

  submit(row: Row): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      if (!this.busy) void this.next();
      else if (this.waiting.length >= this.maxRows) this.endLinger?.();
    });
  }

  private async next(): Promise<void> {
    this.busy = true;
    while (this.waiting.length > 0) {
      if (this.lingerMs > 0 && this.waiting.length < this.maxRows) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.lingerMs);
          this.endLinger = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.endLinger = undefined;
      }
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
