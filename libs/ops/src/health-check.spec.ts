import { runHealthChecks } from './health-check';

describe('runHealthChecks', () => {
  it('is ok when every dependency answers', async () => {
    const report = await runHealthChecks([
      { name: 'nats', probe: () => true },
      { name: 'database', probe: () => Promise.resolve([{ 1: 1 }]) },
    ]);
    expect(report).toEqual({ status: 'ok', checks: { nats: 'up', database: 'up' } });
  });

  it('is unavailable when one is down, failing, or silent', async () => {
    jest.useFakeTimers();
    const pending = runHealthChecks([
      { name: 'nats', probe: () => false },
      { name: 'database', probe: () => Promise.reject(new Error('refused')) },
      { name: 'redis', probe: () => new Promise(() => undefined) },
      { name: 'other', probe: () => true },
    ]);
    await jest.advanceTimersByTimeAsync(2_500);
    const report = await pending;
    jest.useRealTimers();
    expect(report).toEqual({
      status: 'unavailable',
      checks: { nats: 'down', database: 'down', redis: 'down', other: 'up' },
    });
  });

  it('is degraded, still ready, when only a check that degrades is down', async () => {
    const degraded = await runHealthChecks([
      { name: 'nats', probe: () => true },
      { name: 'redis', probe: () => false, degradesOnly: true },
    ]);
    expect(degraded).toEqual({ status: 'degraded', checks: { nats: 'up', redis: 'down' } });
    const down = await runHealthChecks([
      { name: 'redis', probe: () => false, degradesOnly: true },
      { name: 'nats', probe: () => false },
    ]);
    expect(down.status).toBe('unavailable');
  });
});
