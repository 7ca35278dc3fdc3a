// The requests one service process works on at once, whichever way they
// reach it (Nest's handlers, byte replies, the calls of a batch): one budget
// for all of them, so that NATS_MAX_IN_FLIGHT bounds the process's work
// however its callers send it. A request that finds it spent is answered
// SERVICE_UNAVAILABLE at once rather than queued behind the database.
export class InFlightBudget {
  private active = 0;

  constructor(readonly max: number) {}

  /** Counts one more in work, or false when the budget is spent. */
  take(): boolean {
    if (this.active >= this.max) return false;
    this.active += 1;
    return true;
  }

  release(): void {
    this.active -= 1;
  }

  inWork(): number {
    return this.active;
  }
}

let processBudget: InFlightBudget | undefined;

// The process's budget, made by the first to ask (every asker reads the same
// NATS_MAX_IN_FLIGHT).
export function processInFlightBudget(max: number): InFlightBudget {
  processBudget ??= new InFlightBudget(max);
  return processBudget;
}
