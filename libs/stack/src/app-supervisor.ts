import { type AppExit, AppProcess, type AppProcessOptions } from './app-process';

// How a supervised app is brought back: the first restart waits
// `initialDelayMs`, each following one twice as long up to `maxDelayMs`; an
// app that stayed up `resetAfterMs` starts again from the first delay.
export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  resetAfterMs: number;
}

// What Kubernetes' CrashLoopBackOff does, shorter: local runs should come back fast.
export const defaultRestartPolicy: RestartPolicy = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
};

// Keeps one app running, as `npm start`'s stand-in for Kubernetes: when the
// process exits for any reason other than stop(), a new one is started with
// the same environment after a backoff, and each restart is printed.
export class AppSupervisor {
  private current: AppProcess;
  private stopped = false;
  private restarts = 0;
  private nextDelayMs: number;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly options: AppProcessOptions,
    private readonly policy: RestartPolicy,
    /** Told of each new process (the stack keeps its map of apps current). */
    private readonly onLaunch: (app: AppProcess) => void = () => undefined,
  ) {
    this.nextDelayMs = policy.initialDelayMs;
    this.current = this.launch();
  }

  get app(): AppProcess {
    return this.current;
  }

  get restartCount(): number {
    return this.restarts;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current.stop();
  }

  private launch(): AppProcess {
    const app = new AppProcess(this.options);
    const startedAt = Date.now();
    this.current = app;
    this.onLaunch(app);
    void app.whenExited().then((exit) => this.exited(exit, Date.now() - startedAt));
    return app;
  }

  private exited(exit: AppExit, upMs: number): void {
    if (this.stopped) return;
    if (upMs >= this.policy.resetAfterMs) this.nextDelayMs = this.policy.initialDelayMs;
    const delayMs = this.nextDelayMs;
    this.nextDelayMs = Math.min(delayMs * 2, this.policy.maxDelayMs);
    this.restarts += 1;
    const how = exit.signal ? `killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
    this.say(`${how} after ${formatSeconds(upMs)}; restart ${this.restarts} in ${formatSeconds(delayMs)}`);
    this.timer = setTimeout(() => {
      if (this.stopped) return;
      const app = this.launch();
      this.say(`restarted (pid ${String(app.pid)})`);
      app.waitReady(120_000).then(
        () => this.say('ready again'),
        () => undefined, // it exited or hangs: the next exit or the readiness probe tells
      );
    }, delayMs);
  }

  private say(line: string): void {
    this.options.onLine(this.options.label, `[supervisor] ${line}`);
  }
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
