import { type AppName, appNames, readinessStatus } from '@formline/stack';
import { eventually, useTestRegions } from '@formline/testing';

// Readiness is what Kubernetes routes traffic by: each app must report not
// ready while a dependency it needs is unreachable, say which one, and be ready
// again once the dependency is back, without a restart. Each dependency here
// is private to this test (its own NATS and Redis, PostgreSQL behind a proxy
// the test cuts), so the shared test servers stay untouched.
describe('readiness follows the dependencies', () => {
  const maxInFlight = 4;
  const {
    regions,
    nats,
    redis,
    databaseProxy: database,
  } = useTestRegions({
    regions: ['us'],
    privateNats: true,
    privateRedis: true,
    databaseProxy: true,
    // Small, so the load-shedding case below fills it; nothing else here
    // sends the gateway more than one request at a time.
    extraEnv: { GATEWAY_MAX_IN_FLIGHT: String(maxInFlight) },
  });

  const readiness = async () => {
    const stack = regions.stacks.us!;
    const statuses = await Promise.all(appNames.map((app) => readinessStatus(stack.settings.opsPorts[app])));
    return Object.fromEntries(appNames.map((app, index) => [app, statuses[index]])) as Record<
      AppName,
      number
    >;
  };
  const readinessBody = async (app: AppName) =>
    (await (
      await fetch(`http://127.0.0.1:${regions.stacks.us!.settings.opsPorts[app]}/health/ready`)
    ).json()) as { status: string; checks: Record<string, string> };
  const expected = (down: readonly AppName[]) =>
    Object.fromEntries(appNames.map((app) => [app, down.includes(app) ? 503 : 200]));
  const allReady = expected([]);

  it.each([
    [
      'NATS',
      'nats',
      ['gateway', 'global', 'responses', 'webhooks', 'media'],
      () => nats.stop(),
      () => nats.start(),
    ],
    ['Redis', 'redis', ['webhooks', 'dispatcher'], () => redis.stop(), () => redis.start()],
    [
      'PostgreSQL',
      'database',
      ['global', 'responses', 'webhooks', 'dispatcher'],
      () => database.stop(),
      () => database.start(),
    ],
  ] as const)(
    'while %s is away: not ready where it is needed, naming it; ready again when it returns',
    async (_, check, needing, stop, start) => {
      expect(await eventually(readiness, sameAs(allReady))).toEqual(allReady);
      await stop();
      expect(await eventually(readiness, sameAs(expected(needing)))).toEqual(expected(needing));
      for (const app of needing) {
        expect(await readinessBody(app)).toEqual({
          status: 'unavailable',
          checks: expect.objectContaining({ [check]: 'down' }),
        });
      }
      await start();
      expect(await eventually(readiness, sameAs(allReady), 20_000)).toEqual(allReady);
      // Nobody died of it: every app recovered in place.
      for (const app of appNames)
        expect([app, regions.stacks.us!.app(app).hasExited()]).toEqual([app, false]);
    },
  );

  // A hung dependency holds each request for the whole RPC timeout: past its
  // in-flight bound the gateway refuses new ones at once, 503 with Retry-After,
  // rather than queueing them, and takes requests again when it is back.
  it('sheds requests over its in-flight bound while NATS hangs, and serves again after', async () => {
    expect(await eventually(readiness, sameAs(allReady))).toEqual(allReady);
    const get = () =>
      fetch(`${regions.baseUrl('us')}/forms/nosuchform`, {
        headers: { authorization: 'bearer tfp_not-a-known-token' },
      });
    nats.freeze();
    let answers: Response[];
    try {
      answers = await Promise.all(Array.from({ length: maxInFlight * 3 }, get));
    } finally {
      nats.thaw();
    }
    const bodies = await Promise.all(
      answers.map(async (answer) => ({
        status: answer.status,
        retryAfter: answer.headers.get('retry-after'),
        ...((await answer.json()) as { code: string; description: string }),
      })),
    );
    expect(bodies.every((body) => body.status === 503 && body.retryAfter !== null)).toBe(true);
    const shed = bodies.filter((body) => /as many requests as it can/.test(body.description));
    expect(shed.length).toBeGreaterThanOrEqual(maxInFlight * 2);
    expect(shed.every((body) => body.code === 'SERVICE_UNAVAILABLE')).toBe(true);
    const served = await eventually(
      async () => (await get()).status,
      (status) => status === 401,
    );
    expect(served).toBe(401);
  });

  // The gateway works on without Redis (its rate limits counted per replica):
  // it stays ready, and its readiness says what is missing.
  it('keeps the gateway ready but degraded while Redis is away', async () => {
    expect(await eventually(readiness, sameAs(allReady))).toEqual(allReady);
    await redis.stop();
    try {
      const degraded: Awaited<ReturnType<typeof readinessBody>> = {
        status: 'degraded',
        checks: { nats: 'up', redis: 'down' },
      };
      expect(await eventually(() => readinessBody('gateway'), sameAs(degraded))).toEqual(degraded);
      expect((await readiness()).gateway).toBe(200);
    } finally {
      await redis.start();
    }
    const ok: Awaited<ReturnType<typeof readinessBody>> = {
      status: 'ok',
      checks: { nats: 'up', redis: 'up' },
    };
    expect(await eventually(() => readinessBody('gateway'), sameAs(ok), 20_000)).toEqual(ok);
  });
});

const sameAs =
  <T>(want: T) =>
  (value: T): boolean =>
    JSON.stringify(value) === JSON.stringify(want);
