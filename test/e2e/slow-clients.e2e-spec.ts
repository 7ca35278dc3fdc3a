import { connect } from 'node:net';
import type { AppProcess } from '@formline/stack';
import {
  basicAuthorization,
  callApi,
  type RawAnswer,
  type RawExchange,
  type RawRequest,
  rawRequest,
  useTestRegions,
} from '@formline/testing';

// Clients that are slow or early on purpose, spoken to over raw sockets: a
// request whose headers or body never finish is cut off in time (408 with
// the error body), an idle keep-alive socket is closed, sockets waiting on
// their own client to send a body never keep other callers from being served,
// and a request that will be refused is answered before its body is read.
describe('slow and early clients', () => {
  const timeouts = { headers: 1_500, request: 4_000, idle: 2_500, keepAlive: 1_000 };
  const { regions, accounts, createForm, launchApp } = useTestRegions({
    regions: ['us'],
    extraEnv: {
      TRUSTED_PROXIES: '127.0.0.1',
      SUBMISSION_RATE_LIMIT_PER_ADDRESS: '3',
      GATEWAY_HEADERS_TIMEOUT_MS: String(timeouts.headers),
      GATEWAY_REQUEST_TIMEOUT_MS: String(timeouts.request),
      GATEWAY_IDLE_TIMEOUT_MS: String(timeouts.idle),
      GATEWAY_KEEP_ALIVE_TIMEOUT_MS: String(timeouts.keepAlive),
    },
    accounts: { alice: { region: 'us', password: 'alice-password-1' } },
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
    const answer = await idle.answer;
    expect(answer?.status).toBe(200);
    // Counted from the answer: the socket is idle from then on.
    const idleFor = (await idle.closed) - answer!.afterMs;
    expect(idleFor).toBeGreaterThanOrEqual(timeouts.keepAlive - 100);
    expect(idleFor).toBeLessThan(timeouts.idle);
  });

  describe('refused before the body is read', () => {
    // Answered while the body is still held back: nothing of it was waited for.
    const answeredAtOnce = (answer: RawAnswer | undefined, status: number, code: string) => {
      expect([answer?.status, answer?.body?.code]).toEqual([status, code]);
      expect(answer?.body).toEqual({ code, description: expect.any(String) });
      expect(answer!.afterMs).toBeLessThan(1_000);
    };
    const fiveMegabytes = 5 * 1024 * 1024;

    it('answers an anonymous POST /images declaring 5 MB with 401 at once', async () => {
      const early = exchange(regions.baseUrl('us'), {
        method: 'POST',
        path: '/images',
        headers: { 'content-type': 'application/json' },
        body: '{"image":"',
        declaredLength: fiveMegabytes,
      });
      const answer = await early.answer;
      answeredAtOnce(answer, 401, 'AUTHENTICATION_FAILED');
      expect(answer?.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });

    it('answers a token without the scope with 403 at once', async () => {
      const reader = await callApi(`${regions.baseUrl('us')}/tokens`, {
        headers: basicAuthorization(alice.email, alice.password),
        method: 'POST',
        body: { name: 'reads only', scopes: ['forms:read'] },
      });
      expect(reader.status).toBe(201);
      const early = exchange(regions.baseUrl('us'), {
        method: 'POST',
        path: '/images',
        headers: { 'content-type': 'application/json', authorization: `bearer ${reader.body.token}` },
        body: '{"image":"',
        declaredLength: fiveMegabytes,
      });
      answeredAtOnce(await early.answer, 403, 'INSUFFICIENT_SCOPE');
    });

    it('answers an anonymous respondent over its budget with 429 at once', async () => {
      const client = `10.${random()}.${random()}.${random()}`;
      const answers = JSON.stringify({ answers: [{ field: { ref: 'n' }, type: 'number', number: 1 }] });
      for (let i = 0; i < 3; i++) {
        const taken = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
          method: 'POST',
          headers: { 'x-forwarded-for': client, 'content-type': 'application/json' },
          rawBody: answers,
        });
        expect(taken.status).toBe(201);
      }
      const early = exchange(regions.baseUrl('us'), submission(client, '{"answers":', 400_000));
      const answer = await early.answer;
      answeredAtOnce(answer, 429, 'RATE_LIMITED');
      expect(Number(answer?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    });

    it("answers a body declared over the route's limit with 413 at once", async () => {
      const early = exchange(regions.baseUrl('us'), {
        method: 'POST',
        path: '/images',
        headers: { 'content-type': 'application/json', authorization: `bearer ${alice.token}` },
        body: '{"image":"',
        declaredLength: 50 * 1024 * 1024,
      });
      const answer = await early.answer;
      answeredAtOnce(answer, 413, 'PAYLOAD_TOO_LARGE');
      // The socket is kept while the client goes on writing: closed under it,
      // the connection would be reset and a slower client lose the answer.
      expect(answer?.headers.get('connection')).not.toBe('close');
      early.write(Buffer.alloc(256 * 1024, 0x41));
      const closedAfterMs = await Promise.race([
        early.closed,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 500)),
      ]);
      expect(closedAfterMs).toBeUndefined();
    });
  });

  it('answers headers over the limit with 431, and does not reset a client still sending its body', async () => {
    // A client that goes on writing after the answer (as HTTP clients do
    // while they send a body): closed under it, the connection is reset, and
    // a client slower to read loses the answer.
    const url = new URL(regions.baseUrl('us'));
    const socket = connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
    const failures: string[] = [];
    socket.on('error', (error: NodeJS.ErrnoException) => failures.push(String(error.code)));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /forms HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
        `x-big: ${'a'.repeat(20_000)}\r\ncontent-length: ${1024 * 1024}\r\n\r\n`,
    );
    const writeUntil = Date.now() + 600;
    while (Date.now() < writeUntil && !socket.destroyed) {
      socket.write(Buffer.alloc(16 * 1024, 0x41));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 431 /);
    expect(received).toContain('"code":"HEADERS_TOO_LARGE"');
    expect(failures).toEqual([]);
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
      // In tens, so that they never arrive as a burst (counting their
      // budgets is work, and a burst past the bound would be shed).
      const stalled: RawExchange[] = [];
      for (let client = 0; client < 200; client++) {
        stalled.push(exchange(baseUrl, submission(`198.51.100.${client + 1}`, '{"answers":', 5_000)));
        if (client % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 100));
      }
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

const random = () => Math.floor(Math.random() * 250) + 1;
