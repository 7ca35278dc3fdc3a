// A dependency the app needs to do its work. `probe` resolves when the
// dependency answers and rejects (or resolves false) when it does not.
export interface HealthCheck {
  name: string;
  probe: () => Promise<unknown> | boolean;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, 'up' | 'down'>;
}

const probeTimeoutMs = 2000;

export async function runHealthChecks(checks: readonly HealthCheck[]): Promise<HealthReport> {
  const results = await Promise.all(checks.map(async (check) => [check.name, await isUp(check)] as const));
  const report: HealthReport = { status: 'ok', checks: {} };
  for (const [name, up] of results) {
    report.checks[name] = up ? 'up' : 'down';
    if (!up) report.status = 'unavailable';
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
