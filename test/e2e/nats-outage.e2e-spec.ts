import { readinessStatus } from '@formline/stack';
import { callApi, eventually, useTestRegions } from '@formline/testing';

// The gateway while NATS is away: a prompt 503 with the error body (never a
// hang, never a 500), readiness down, and service again once NATS is back,
// without restarting anything.
describe('gateway through a NATS outage', () => {
  const { regions, nats, accounts } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global'],
    privateNats: true,
    // Far longer than any answer below may take: a 503 must come from
    // noticing the outage, not from waiting out the timeout.
    extraEnv: { NATS_REQUEST_TIMEOUT_MS: '30000' },
    accounts: { account: 'us' },
  });
  const { account } = accounts;

  const retrieve = () =>
    callApi(`${regions.baseUrl('us')}/forms/${account.formId}`, { token: account.token });
  const gatewayReadiness = () => readinessStatus(regions.stacks.us!.settings.opsPorts.gateway);

  it('answers 503 with the error body while NATS is down, then recovers when it returns', async () => {
    expect((await retrieve()).status).toBe(200);

    await nats.stop();
    const started = Date.now();
    const during = await eventually(retrieve, (response) => response.status === 503);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(during.body).toEqual({ code: 'SERVICE_UNAVAILABLE', description: expect.any(String) });
    expect(during.headers.get('retry-after')).toBe('1');
    expect(await gatewayReadiness()).toBe(503);

    await nats.start();
    const after = await eventually(retrieve, (response) => response.status === 200);
    expect(after.body.id).toBe(account.formId);
    expect(await gatewayReadiness()).toBe(200);
  });

  it('answers 503 at once when no global service listens', async () => {
    await regions.stacks.us!.app('global').stop();
    const started = Date.now();
    // The listing, which the gateway never caches (a form read it may answer
    // from its cache for READ_CACHE_TTL_MS, global service or not).
    const response = await callApi(`${regions.baseUrl('us')}/forms`, { token: account.token });
    expect(Date.now() - started).toBeLessThan(10_000); // NATS says "no responders"; no 30 s wait
    expect(response.status).toBe(503);
    expect(response.body.code).toBe('SERVICE_UNAVAILABLE');
  });
});
