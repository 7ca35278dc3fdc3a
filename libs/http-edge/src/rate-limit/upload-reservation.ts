import type { Budget } from './rate-limiter';

// One budget's share held by an upload: which budget, whose key, how much.
export interface Held {
  budget: Budget;
  key: string;
  points: number;
}

// What one upload holds of its caller's budgets, from the access decision
// (the declared size) until the route stores the file (settled to the bytes
// stored, then kept) or the request ends without storing it (given back).
export class UploadReservation {
  private done = false;

  constructor(
    private readonly bytes: Held[],
    private readonly files: Held[],
  ) {}

  // Makes the bytes held exactly `stored` (the bytes the store took, which
  // the declared size bounds): what was reserved and not stored is given back.
  async settle(stored: number): Promise<void> {
    for (const held of this.bytes) {
      const more = stored - held.points;
      if (more > 0) await held.budget.take(held.key, more);
      else if (more < 0) await held.budget.giveBack(held.key, -more);
      held.points = stored;
    }
  }

  // The file is stored: what it holds stays counted for the window.
  keep(): void {
    this.done = true;
  }

  // The request ended without storing a file: everything held is given back.
  async release(): Promise<void> {
    if (this.done) return;
    this.done = true;
    for (const held of [...this.bytes, ...this.files]) await held.budget.giveBack(held.key, held.points);
  }
}
