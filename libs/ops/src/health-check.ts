// A dependency the app needs to do its work. `probe` resolves when the
// dependency answers and rejects (or resolves false) when it does not.
// A dependency the app can work without for a while (`degradesOnly`) makes it
// `degraded` when down: still ready (200), but the report names what is missing.
export interface HealthCheck {
  name: string;
  probe: () => Promise<unknown> | boolean;
  degradesOnly?: boolean;
}

export interface HealthReport {
  status: 'ok' | 'degraded' | 'unavailable';
  checks: Record<string, 'up' | 'down'>;
}

const probeTimeoutMs = 2000;

export async function runHealthChecks(checks: readonly HealthCheck[]): Promise<HealthReport> {
  const results = await Promise.all(checks.map(async (check) => [check, await isUp(check)] as const));
  const report: HealthReport = { status: 'ok', checks: {} };
  for (const [check, up] of results) {
    report.checks[check.name] = up ? 'up' : 'down';
    if (up) continue;
    if (!check.degradesOnly) report.status = 'unavailable';
    else if (report.status === 'ok') report.status = 'degraded';
  }
  return report;
}

async function isUp(check: HealthCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), probeTimeoutMs);
  });
  try {
    const answer = Promise.resolve(check.probe()).then(
      (value) => value !== false,
      () => false,
    );
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
