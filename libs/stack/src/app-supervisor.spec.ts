import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppSupervisor } from './app-supervisor';

// Real child processes (tiny scripts standing in for an app), real signals.
describe('AppSupervisor', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'supervisor-'));
  const script = (name: string, body: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, body);
    return file;
  };
  const crashing = script('crashing.js', 'setTimeout(() => process.exit(3), 50);');
  const steady = script('steady.js', 'setInterval(() => undefined, 1000);');
  const slowCrash = script('slow-crash.js', 'setTimeout(() => process.exit(4), 400);');

  function supervise(entry: string, policy = { initialDelayMs: 100, maxDelayMs: 400, resetAfterMs: 60_000 }) {
    const lines: string[] = [];
    const supervisor = new AppSupervisor(
      { label: 'us test', entry, env: {}, opsPort: 1, onLine: (_, line) => lines.push(line) },
      policy,
    );
    return { supervisor, lines };
  }

  async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('restarts an app that exits, doubling the delay up to the maximum, and says so', async () => {
    const { supervisor, lines } = supervise(crashing);
    try {
      await until(() => supervisor.restartCount >= 4);
      const delays = lines
        .filter((line) => line.includes('exited with code 3'))
        .map((line) => /in ([\d.]+) s$/.exec(line)?.[1]);
      expect(delays.slice(0, 4)).toEqual(['0.1', '0.2', '0.4', '0.4']);
      expect(lines).toContain(`[supervisor] restarted (pid ${String(supervisor.app.pid)})`);
    } finally {
      await supervisor.stop();
    }
  });

  it('starts again from the first delay after the app stayed up long enough', async () => {
    const { supervisor, lines } = supervise(slowCrash, {
      initialDelayMs: 100,
      maxDelayMs: 1000,
      resetAfterMs: 300,
    });
    try {
      await until(() => supervisor.restartCount >= 3);
      const delays = lines
        .filter((line) => line.includes('exited with code 4'))
        .map((line) => /in ([\d.]+) s$/.exec(line)?.[1]);
      expect(delays.slice(0, 3)).toEqual(['0.1', '0.1', '0.1']);
    } finally {
      await supervisor.stop();
    }
  });

  it('brings back an app killed with SIGKILL, and lets stop() end it for good', async () => {
    const { supervisor, lines } = supervise(steady);
    const first = supervisor.app;
    first.kill();
    await until(() => supervisor.app !== first);
    expect(lines.some((line) => line.includes('killed by SIGKILL'))).toBe(true);
    const second = supervisor.app;
    expect(second.pid).not.toBe(first.pid);
    await supervisor.stop();
    expect(second.hasExited()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the first restart delay
    expect(supervisor.app).toBe(second);
    expect(supervisor.restartCount).toBe(1);
  });
});
