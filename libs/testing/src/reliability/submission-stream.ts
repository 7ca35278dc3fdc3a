import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';

export interface SubmissionStreamOptions {
  /** The form's submissions address, e.g. http://127.0.0.1:3000/forms/abc/submissions. */
  url: string;
  ratePerSecond: number;
  /** The body of the n-th submission. */
  body: (n: number) => unknown;
  /** A client's first pause before it retries; doubled at each retry up to `maxRetryIntervalMs`, with jitter. */
  retryIntervalMs?: number;
  maxRetryIntervalMs?: number;
  /** How long one HTTP attempt may take before the client gives up on it and retries. */
  attemptTimeoutMs?: number;
}

export interface StreamFigures {
  /** Submissions started (each with its own Idempotency-Key). */
  sent: number;
  /** Submissions the API accepted (201, or 200 replaying an earlier acceptance). */
  accepted: number;
  /** Submissions still retrying when asked, or when the clients were stopped. */
  pending: number;
  /** Submissions refused for good (a 4xx other than 408 and 429): a bug in this setting. */
  refused: number;
  attempts: number;
  retries: number;
  /** Answers by HTTP status, and `network` for a refused or cut connection. */
  answers: Record<string, number>;
  /** Retryable answers without Retry-After (503 must carry it). */
  unavailableWithoutRetryAfter: number;
}

// Anonymous submissions at a steady rate, each retried by its client with the
// same Idempotency-Key on a 5xx, a 429, a 408 or a failed connection, until
// accepted. (408: the server closed a connection on which the request had not
// fully arrived in time, e.g. while it was too busy to read it; HTTP lets the
// client repeat the request, and the key makes that safe.)
// Clients back off as well-behaved ones do (never sooner than Retry-After,
// doubling from 1 s, with jitter): clients that all retry every second would
// multiply the load while a region recovers. Records what the clients met.
export class SubmissionStream {
  /** Idempotency-Key -> the response token the API answered with. */
  readonly accepted = new Map<string, string>();
  /** The keys that were refused for good, with the answer. */
  readonly refused = new Map<string, string>();
  private readonly answers: Record<string, number> = {};
  private readonly inFlight = new Set<Promise<void>>();
  private sent = 0;
  private attempts = 0;
  private unavailableWithoutRetryAfter = 0;
  private timer?: NodeJS.Timeout;
  private stopping = false;
  /** Set by stop(): every client gives up, the attempt under way aborted. */
  private readonly abandon = new AbortController();
  private abandoned?: number;

  constructor(private readonly options: SubmissionStreamOptions) {
    // Every waiting client listens to it: thousands during an outage.
    setMaxListeners(0, this.abandon.signal);
  }

  start(): void {
    const intervalMs = 1000 / this.options.ratePerSecond;
    const startedAt = Date.now();
    // Catch up on missed ticks, so the rate holds when the event loop is busy.
    const tick = () => {
      if (this.stopping) return;
      const due = Math.floor((Date.now() - startedAt) / intervalMs) + 1;
      while (this.sent < due) this.submit(this.sent++);
      this.timer = setTimeout(tick, intervalMs);
    };
    tick();
  }

  /** Stops starting new submissions; the ones under way keep retrying. */
  stopSending(): void {
    this.stopping = true;
    clearTimeout(this.timer);
  }

  /**
   * Every client gives up now, its attempt under way aborted: nothing is
   * accepted after this, so an audit that follows counts exactly what the
   * clients were told. The submissions given up count as pending.
   */
  stop(): void {
    this.stopSending();
    this.abandoned ??= this.inFlight.size;
    this.abandon.abort();
  }

  /** Waits until every submission is accepted or refused, or the time runs out. */
  async settle(timeoutMs: number): Promise<boolean> {
    this.stopSending();
    const deadline = Date.now() + timeoutMs;
    while (this.inFlight.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return this.inFlight.size === 0;
  }

  figures(): StreamFigures {
    const errors = Object.entries(this.answers)
      .filter(([status]) => status !== '200' && status !== '201')
      .reduce((sum, [, n]) => sum + n, 0);
    return {
      sent: this.sent,
      accepted: this.accepted.size,
      pending: this.abandoned ?? this.inFlight.size,
      refused: this.refused.size,
      attempts: this.attempts,
      retries: errors,
      answers: { ...this.answers },
      unavailableWithoutRetryAfter: this.unavailableWithoutRetryAfter,
    };
  }

  private submit(n: number): void {
    const key = randomUUID();
    const body = JSON.stringify(this.options.body(n));
    const run = this.untilSettled(key, body).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async untilSettled(key: string, body: string): Promise<void> {
    const firstIntervalMs = this.options.retryIntervalMs ?? 1000;
    const maxIntervalMs = this.options.maxRetryIntervalMs ?? 8000;
    for (let retry = 0; ; retry++) {
      if (this.abandon.signal.aborted) return;
      this.attempts++;
      const outcome = await this.attempt(key, body);
      if (this.abandon.signal.aborted) return;
      this.answers[outcome.status] = (this.answers[outcome.status] ?? 0) + 1;
      if (outcome.token !== undefined) {
        this.accepted.set(key, outcome.token);
        return;
      }
      if (!outcome.retry) {
        this.refused.set(key, `${outcome.status} ${outcome.text.slice(0, 200)}`);
        return;
      }
      const backoffMs = Math.min(firstIntervalMs * 2 ** retry, maxIntervalMs);
      const delayMs = Math.max(outcome.retryAfterMs, backoffMs * (0.5 + Math.random() / 2));
      await this.pause(delayMs);
    }
  }

  // Sleeps, unless the clients are stopped meanwhile.
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.abandon.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.abandon.signal.addEventListener('abort', done, { once: true });
    });
  }

  private async attempt(
    key: string,
    body: string,
  ): Promise<{ status: string; token?: string; retry: boolean; text: string; retryAfterMs: number }> {
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body,
        signal: AbortSignal.any([
          AbortSignal.timeout(this.options.attemptTimeoutMs ?? 15_000),
          this.abandon.signal,
        ]),
      });
      const text = await response.text();
      const status = String(response.status);
      if (response.status === 200 || response.status === 201) {
        const token = (JSON.parse(text) as { token: string }).token;
        return { status, token, retry: false, text, retryAfterMs: 0 };
      }
      const retryAfter = response.headers.get('retry-after');
      if (response.status === 503 && !retryAfter) this.unavailableWithoutRetryAfter++;
      const retryAfterMs = Number(retryAfter ?? 0) * 1000 || 0;
      const retry = response.status >= 500 || response.status === 429 || response.status === 408;
      return { status, retry, text, retryAfterMs };
    } catch (error) {
      return { status: 'network', retry: true, text: String(error), retryAfterMs: 0 };
    }
  }
}
