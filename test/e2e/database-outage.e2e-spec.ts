import { readinessStatus } from '@formline/stack';
import { callApi, eventually, useTestRegions } from '@formline/testing';

// A database that goes away, and a pool that runs dry, answer 503
// SERVICE_UNAVAILABLE with Retry-After on every path (submissions, reads,
// listings), never 500; readiness says so; service resumes by itself.
// PostgreSQL sits behind a proxy the test cuts, so the shared server stays up.
describe('database outage and exhausted pool', () => {
  const {
    regions,
    databaseProxy: proxy,
    accounts,
  } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses'],
    databaseProxy: true,
    // A small pool and few requests in work, so a burst exhausts them.
    extraEnv: { DATABASE_POOL_SIZE: '2', DATABASE_POOL_TIMEOUT_MS: '300', NATS_MAX_IN_FLIGHT: '4' },
    accounts: { account: 'us' },
  });
  const { account } = accounts;

  const base = () => regions.baseUrl('us');
  const submit = (n: number) =>
    callApi(`${base()}/forms/${account.formId}/submissions`, {
      method: 'POST',
      headers: { 'idempotency-key': `outage-${n}` },
      body: { answers: [] },
    });
  const read = () => callApi(`${base()}/forms/${account.formId}`, { token: account.token });
  const list = () => callApi(`${base()}/forms/${account.formId}/responses`, { token: account.token });
  const ready = (app: 'global' | 'responses') => readinessStatus(regions.stacks.us!.settings.opsPorts[app]);

  function expectUnavailable(response: { status: number; body: any; headers: Headers }) {
    expect({ status: response.status, code: response.body?.code }).toEqual({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(response.headers.get('retry-after')).toBe('1');
  }

  it('answers 503 with Retry-After while PostgreSQL is unreachable, and recovers by itself', async () => {
    expect((await submit(1)).status).toBe(201);

    await proxy.stop();
    for (const response of [await submit(2), await read(), await list()]) expectUnavailable(response);
    expect(
      await eventually(
        () => ready('responses'),
        (status) => status === 503,
      ),
    ).toBe(503);
    expect(await ready('global')).toBe(503);

    await proxy.start();
    const again = await eventually(
      () => submit(2),
      (response) => response.status === 201,
      30_000,
    );
    expect(again.status).toBe(201);
    expect((await read()).status).toBe(200);
    expect((await list()).status).toBe(200);
    expect(
      await eventually(
        () => ready('responses'),
        (status) => status === 200,
      ),
    ).toBe(200);
  });

  it('answers a burst beyond the pool with 201 or 503 + Retry-After, never 500', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => submit(100 + i)));
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    expect(statuses).toContain(201);
    expect(statuses).toContain(503); // the burst did exhaust them: the test proves the 503 path
    for (const response of answers.filter((r) => r.status === 503)) expectUnavailable(response);
  });
});
