import type { Agent } from 'node:http';
import { keepAliveAgent, LoopbackAddresses, sendFrom } from './loopback-http';

// The other callers the region must go on serving: an API client reading a
// form with its token (keep-alive, one address) and respondents submitting to
// it (a new address each, as respondents are many). Open loop: requests leave
// on a fixed schedule whether or not earlier ones were answered, so a stall
// shows as latency and as answers that never came, not as fewer samples.

export type CallKind = 'read' | 'submit';

export interface CallSample {
  kind: CallKind;
  /** The phase that was running when the request left. */
  phase: string;
  status: number;
  ms: number;
}

export interface NormalCallerSettings {
  base: URL;
  token: string;
  formId: string;
  readsPerSecond: number;
  submitsPerSecond: number;
}

export class NormalCaller {
  readonly samples: CallSample[] = [];
  phase = 'setup';
  private readonly agent: Agent = keepAliveAgent();
  private readonly respondents = new LoopbackAddresses(1);
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly pending = new Set<Promise<void>>();
  private submitted = 0;

  constructor(private readonly settings: NormalCallerSettings) {}

  start(): void {
    const { readsPerSecond, submitsPerSecond } = this.settings;
    this.timers.push(setInterval(() => this.track(this.read()), 1000 / readsPerSecond));
    this.timers.push(setInterval(() => this.track(this.submit()), 1000 / submitsPerSecond));
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.pending);
    this.agent.destroy();
  }

  private track(call: Promise<void>): void {
    this.pending.add(call);
    void call.finally(() => this.pending.delete(call));
  }

  private async read(): Promise<void> {
    const phase = this.phase;
    const answer = await sendFrom(this.settings.base, {
      method: 'GET',
      path: `/forms/${this.settings.formId}`,
      from: '127.0.0.2',
      agent: this.agent,
      headers: { authorization: `bearer ${this.settings.token}` },
    });
    this.samples.push({ kind: 'read', phase, status: answer.status, ms: answer.ms });
  }

  private async submit(): Promise<void> {
    const phase = this.phase;
    const answer = await sendFrom(this.settings.base, {
      method: 'POST',
      path: `/forms/${this.settings.formId}/submissions`,
      from: this.respondents.at(this.submitted++),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        answers: [{ field: { ref: 'name' }, type: 'text', text: 'A regular respondent' }],
        hidden: { source: 'outside-check' },
      }),
    });
    this.samples.push({ kind: 'submit', phase, status: answer.status, ms: answer.ms });
  }
}
