// What one kind of caller was answered in a phase: a count per status (or
// per outcome without a status: "held", "no answer"), and the answers that
// break what the gateway promises, each said once with how often it came.
export class StatusTally {
  private readonly counts = new Map<string, number>();
  private readonly failures = new Map<string, number>();

  constructor(readonly caller: string) {}

  count(outcome: number | string): void {
    const key = String(outcome);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  fail(reason: string): void {
    this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
  }

  /** Counts the answer and fails it when it is a 5xx other than a 503 with Retry-After (shedding, a full render pool). */
  answer(status: number, retryAfter: string | string[] | undefined): void {
    this.count(status === 0 ? 'no answer' : status);
    if (status === 503 && retryAfter === undefined) this.fail('503 without Retry-After');
    else if (status >= 500 && status !== 503) this.fail(`answered ${status}`);
  }

  of(outcome: number | string): number {
    return this.counts.get(String(outcome)) ?? 0;
  }

  get total(): number {
    return [...this.counts.values()].reduce((sum, count) => sum + count, 0);
  }

  get failed(): boolean {
    return this.failures.size > 0;
  }

  summary(): string {
    const counts = [...this.counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([outcome, count]) => `${outcome}: ${count}`)
      .join(', ');
    return counts || 'nothing sent';
  }

  failureLines(): string[] {
    return [...this.failures.entries()].map(([reason, count]) => `${this.caller}: ${reason} (${count}x)`);
  }
}
