import { appEntry, AppProcess, type AppProcessOptions } from './app-process';
import { AppSupervisor, type RestartPolicy } from './app-supervisor';
import { type AppName, appEnvironment, appNames, type RegionStackSettings } from './region-stack.settings';

export interface RegionStackOptions {
  /** Root of the compiled tree (dist/). */
  distDir: string;
  onLine: (label: string, line: string) => void;
  /** Start only these apps (tests of one service); all six by default. */
  apps?: readonly AppName[];
  /** Restart an app that exits, with this backoff (`npm start`); tests restart apps themselves. */
  supervise?: RestartPolicy;
  /** How long each app may take to be ready (30 s by default; a busy machine may need more). */
  readyTimeoutMs?: number;
}

// One region's apps as separate processes, started together and stopped together.
export class RegionStack {
  private constructor(
    readonly settings: RegionStackSettings,
    readonly apps: Map<AppName, AppProcess>,
    private readonly supervisors: Map<AppName, AppSupervisor>,
  ) {}

  static async start(settings: RegionStackSettings, options: RegionStackOptions): Promise<RegionStack> {
    const apps = new Map<AppName, AppProcess>();
    const supervisors = new Map<AppName, AppSupervisor>();
    for (const app of options.apps ?? appNames) {
      const processOptions: AppProcessOptions = {
        label: `${settings.region} ${app}`,
        entry: appEntry(options.distDir, app),
        env: appEnvironment(app, settings),
        opsPort: settings.opsPorts[app],
        onLine: options.onLine,
      };
      if (options.supervise) {
        const supervisor = new AppSupervisor(processOptions, options.supervise, (fresh) =>
          apps.set(app, fresh),
        );
        supervisors.set(app, supervisor);
      } else {
        apps.set(app, new AppProcess(processOptions));
      }
    }
    const stack = new RegionStack(settings, apps, supervisors);
    try {
      await Promise.all([...apps.values()].map((app) => app.waitReady(options.readyTimeoutMs)));
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  get baseUrl(): string {
    return `http://${this.settings.httpHost}:${this.settings.httpPort}`;
  }

  app(name: AppName): AppProcess {
    const app = this.apps.get(name);
    if (!app) throw new Error(`${name} is not part of this stack`);
    return app;
  }

  // A new process of one app, with the same settings, once the old one is gone
  // (tests kill an app mid-work and check that a successor picks it up).
  async restart(name: AppName, readyTimeoutMs?: number): Promise<AppProcess> {
    if (this.supervisors.has(name)) throw new Error(`${name} is supervised: its supervisor restarts it`);
    const old = this.app(name);
    await old.stop();
    const fresh = new AppProcess(old.options);
    this.apps.set(name, fresh);
    await fresh.waitReady(readyTimeoutMs);
    return fresh;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.supervisors.values()].map((supervisor) => supervisor.stop()));
    await Promise.all([...this.apps.values()].map((app) => app.stop()));
  }
}
