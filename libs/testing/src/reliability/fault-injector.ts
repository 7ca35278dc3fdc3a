import type { AppName, RegionStack } from '@formline/stack';
import { readinessStatus } from '@formline/stack';

// One fault of the matrix: what breaks, and how it comes back. `restore` does
// what a supervisor (Kubernetes, `npm start`) or an operator would do; it does
// not wait for the apps to recover: the matrix measures that.
export interface Fault {
  name: string;
  /** The apps whose readiness must turn false while the fault lasts. */
  dependents: readonly AppName[];
  break(): Promise<void>;
  restore(): Promise<void>;
}

export interface FaultResult {
  name: string;
  downMs: number;
  /** From the restore until every app of the region answered ready again. */
  recoveredMs?: number;
  /** Apps seen not ready while the fault lasted. */
  notReady: AppName[];
  /** Apps still not ready when the recovery timeout ran out (empty when recovered). */
  stillNotReady: AppName[];
}

// kill -9 of one app, relaunched with the same environment (a supervisor's restart).
export function appCrash(stack: RegionStack, app: AppName): Fault {
  return {
    name: `kill -9 ${stack.settings.region} ${app}`,
    dependents: [],
    break: async () => {
      const victim = stack.app(app);
      victim.kill();
      await victim.waitExit();
    },
    restore: async () => {
      // restart() waits for readiness: let the matrix measure that instead.
      void stack.restart(app).catch(() => undefined);
      return Promise.resolve();
    },
  };
}

// A server (PostgreSQL, NATS, Redis) killed and started again.
export function serverCrash(
  name: string,
  server: { kill(): Promise<void>; start(): Promise<void> },
  dependents: readonly AppName[],
): Fault {
  return { name, dependents, break: () => server.kill(), restore: () => server.start() };
}

// Breaks, waits `downMs` while watching readiness, restores, and waits until
// every app of the stack is ready again (or `recoveryTimeoutMs` passes).
export async function injectFault(
  stack: RegionStack,
  fault: Fault,
  downMs: number,
  // A bound on liveness, not a speed check: a busy machine starts node slowly.
  recoveryTimeoutMs = 180_000,
): Promise<FaultResult> {
  const notReady = new Set<AppName>();
  await fault.break();
  const brokenAt = Date.now();
  while (Date.now() - brokenAt < downMs) {
    const statuses = await readiness(stack);
    for (const [app, status] of statuses) if (status !== 200) notReady.add(app);
    await sleep(200);
  }
  await fault.restore();
  const restoredAt = Date.now();
  let recoveredMs: number | undefined;
  let stillNotReady: AppName[] = [];
  while (Date.now() - restoredAt < recoveryTimeoutMs) {
    const statuses = await readiness(stack);
    stillNotReady = statuses.filter(([, status]) => status !== 200).map(([app]) => app);
    if (stillNotReady.length === 0) {
      recoveredMs = Date.now() - restoredAt;
      break;
    }
    await sleep(200);
  }
  return {
    name: fault.name,
    downMs: restoredAt - brokenAt,
    recoveredMs,
    notReady: [...notReady].sort(),
    stillNotReady: stillNotReady.sort(),
  };
}

async function readiness(stack: RegionStack): Promise<[AppName, number | undefined][]> {
  const apps = [...stack.apps.keys()];
  return Promise.all(
    apps.map(
      async (app) =>
        [app, await readinessStatus(stack.settings.opsPorts[app])] as [AppName, number | undefined],
    ),
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
