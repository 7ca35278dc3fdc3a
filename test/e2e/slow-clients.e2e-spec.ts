import type { AppProcess } from '@formline/stack';
import { callApi, type RawExchange, type RawRequest, rawRequest, useTestRegions } from '@formline/testing';

// Clients that are slow or early on purpose, spoken to over raw sockets: a
// request whose headers or body never finish is cut off in time (408 with
// the error body), an idle keep-alive socket is closed, and sockets waiting on
// their own client to send a body never keep other callers from being served.
describe('slow clients', () => {
  const timeouts = { headers: 1_500, request: 4_000, idle: 2_500, keepAlive: 1_000 };
  const { regions, accounts, createForm, launchApp } = useTestRegions({
    regions: ['us'],
    extraEnv: {
      TRUSTED_PROXIES: '127.0.0.1',
      GATEWAY_HEADERS_TIMEOUT_MS: String(timeouts.headers),
      GATEWAY_REQUEST_TIMEOUT_MS: String(timeouts.request),
      GATEWAY_IDLE_TIMEOUT_MS: String(timeouts.idle),
      GATEWAY_KEEP_ALIVE_TIMEOUT_MS: String(timeouts.keepAlive),
    },
    accounts: { alice: 'us' },
  });
  const { alice } = accounts;
  const open: RawExchange[] = [];
  const exchange = (baseUrl: string, request: RawRequest) => {
    const opened = rawRequest(baseUrl, request);
    open.push(opened);
    return opened;
  };
  afterEach(() => {
    for (const opened of open.splice(0)) opened.close();
  });
  let formId: string;

  beforeAll(async () => {
    formId = await createForm(alice);
  });

  const submission = (client: string, sent: string, declaredLength = 200) => ({
    method: 'POST',
    path: `/forms/${formId}/submissions`,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: sent,
    declaredLength,
  });
  const timedOut = { code: 'REQUEST_TIMEOUT', description: expect.any(String) };

  it('answers 408 with the error body to headers that never finish', async () => {
    // The head is sent without its closing blank line.
    const held = exchange(regions.baseUrl('us'), {
      method: 'GET',
      path: `/forms/${formId}`,
      head: `GET /forms/${formId} HTTP/1.1\r\nHost: x\r\nX-Partial: yes\r\n`,
    });
    const answer = await held.answer;
    expect(answer?.status).toBe(408);
    expect(answer?.body).toEqual(timedOut);
    expect(answer!.afterMs).toBeGreaterThanOrEqual(timeouts.headers - 100);
    expect(answer!.afterMs).toBeLessThan(timeouts.headers + 2_000);
  });

  it('answers 408 to a body sent a byte at a time past the request limit', async () => {
    const slow = exchange(regions.baseUrl('us'), submission('203.0.113.1', '{'));
    // Never silent for long (the idle limit never fires): only the whole request's limit can cut it off.
    const trickle = setInterval(() => slow.write(' '), 300);
    const answer = await slow.answer.finally(() => clearInterval(trickle));
    expect(answer?.status).toBe(408);
    expect(answer?.body).toEqual(timedOut);
    expect(answer!.afterMs).toBeGreaterThanOrEqual(timeouts.request - 100);
    expect(answer!.afterMs).toBeLessThan(timeouts.request + 2_000);
  });

  it('answers 408 to a body that stops coming, after the idle limit', async () => {
    const stalled = exchange(regions.baseUrl('us'), submission('203.0.113.2', '{"answers":'));
    const answer = await stalled.answer;
    expect(answer?.status).toBe(408);
    expect(answer?.body).toEqual(timedOut);
    expect(answer!.afterMs).toBeGreaterThanOrEqual(timeouts.idle - 100);
    expect(answer!.afterMs).toBeLessThan(timeouts.request);
  });

  it('closes an idle keep-alive socket after the keep-alive limit', async () => {
    const idle = exchange(regions.baseUrl('us'), {
      method: 'GET',
      path: `/forms/${formId}`,
      headers: { authorization: `bearer ${alice.token}` },
    });
    expect((await idle.answer)?.status).toBe(200);
    const closedAfter = await idle.closed;
    expect(closedAfter).toBeGreaterThanOrEqual(timeouts.keepAlive - 100);
    expect(closedAfter).toBeLessThan(timeouts.idle);
  });

  describe('against a gateway of 50 requests in flight at most', () => {
    let gateway: AppProcess;
    let baseUrl: string;

    beforeAll(async () => {
      gateway = await launchApp('us', 'gateway', {
        env: {
          GATEWAY_MAX_IN_FLIGHT: '50',
          GATEWAY_IDLE_TIMEOUT_MS: '30000',
          GATEWAY_REQUEST_TIMEOUT_MS: '60000',
        },
      });
      baseUrl = `http://127.0.0.1:${gateway.options.env.HTTP_PORT}`;
      await gateway.waitReady();
    });

    it('serves an authenticated read while 200 submissions hold their bodies back', async () => {
      const stalled = Array.from({ length: 200 }, (_, client) =>
        exchange(baseUrl, submission(`198.51.100.${client % 250}`, '{"answers":', 5_000)),
      );
      // Every one of them has reached the gateway and is waiting on its body.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const read = await callApi(`${baseUrl}/forms/${formId}`, { token: alice.token });
      expect(read.status).toBe(200);
      // None of them was answered: they were taken, not shed.
      const early = await Promise.race([
        Promise.any(stalled.map((one) => one.answer)),
        new Promise((resolve) => setTimeout(() => resolve('none'), 200)),
      ]);
      expect(early).toBe('none');
    });
  });
});
