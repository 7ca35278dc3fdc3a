import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import { SendFailureKind } from '@formline/webhook-delivery';
import { sendWebhook } from './webhook.sender';

describe('sendWebhook', () => {
  let server: Server;
  let connections = 0;
  let received: Array<{ body: string; headers: IncomingMessage['headers'] }> = [];
  let status = 200;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ body, headers: request.headers });
        response.writeHead(status, status === 429 ? { 'retry-after': '7' } : {}).end('ok');
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    connections = 0;
    received = [];
    status = 200;
  });

  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const send = (policy = new OutboundUrlPolicy(['127.0.0.1']), target = url()) =>
    sendWebhook(
      { url: target, verifySsl: true, body: '{"n":1}', headers: { 'x-sig': 's' }, timeoutMs: 2_000 },
      policy,
    );

  it('posts the body and headers, and reuses one connection for consecutive deliveries', async () => {
    for (let i = 0; i < 5; i += 1) expect(await send()).toMatchObject({ ok: true, statusCode: 200 });
    expect(received).toHaveLength(5);
    expect(received[0]).toMatchObject({ body: '{"n":1}', headers: { 'x-sig': 's', 'content-length': '7' } });
    expect(connections).toBe(1);
  });

  it('reports a non-2xx answer with its Retry-After', async () => {
    status = 429;
    expect(await send()).toMatchObject({
      ok: false,
      kind: SendFailureKind.http_status,
      statusCode: 429,
      retryAfterMs: 7_000,
    });
  });

  it('still refuses an internal address that is not allow-listed, and sends nothing', async () => {
    expect(await send(new OutboundUrlPolicy([]))).toMatchObject({
      ok: false,
      kind: SendFailureKind.address_refused,
    });
    expect(received).toHaveLength(0);
  });

  it('lets an allow-listed name reach the internal address it resolves to', async () => {
    const port = (server.address() as AddressInfo).port;
    const policy = new OutboundUrlPolicy(['localhost']);
    const outcome = await sendWebhook(
      { url: `http://localhost:${port}/hook`, verifySsl: true, body: '{}', headers: {}, timeoutMs: 2_000 },
      policy,
    );
    expect(outcome).toMatchObject({ ok: true });
  });

  describe('the look-up of a named receiver', () => {
    const named = (port: number, timeoutMs = 2_000) => ({
      url: `https://hooks.invalid:${port}/hook`,
      verifySsl: true,
      body: '{}',
      headers: {},
      timeoutMs,
    });

    it('is asked once, and the socket goes only to the address it answered and the policy checked', async () => {
      // Not TLS: the handshake fails, but the socket shows where the send went.
      let tcpConnections = 0;
      const tcp = createTcpServer((socket) => {
        tcpConnections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
      try {
        let lookups = 0;
        // A rebinding name: public (here allow-listed) when checked, internal
        // when asked again. The name is in no DNS, so only a pinned socket
        // reaches the listener.
        const rebinding = () => {
          lookups += 1;
          return Promise.resolve(lookups === 1 ? ['127.0.0.1'] : ['10.0.0.7']);
        };
        const outcome = await sendWebhook(
          named((tcp.address() as AddressInfo).port),
          new OutboundUrlPolicy(['127.0.0.1']),
          rebinding,
        );
        expect(outcome.ok).toBe(false);
        expect(outcome).not.toMatchObject({ kind: SendFailureKind.address_refused });
        expect(outcome).not.toMatchObject({ kind: SendFailureKind.dns });
        expect(lookups).toBe(1);
        expect(tcpConnections).toBe(1);
      } finally {
        await new Promise((resolve) => tcp.close(resolve));
      }
    });

    it('is cut off by the send deadline when the name server does not answer', async () => {
      // A name server that never answers, and does not heed the signal either.
      const silent = () => new Promise<string[]>(() => undefined);
      const started = performance.now();
      const outcome = await sendWebhook(named(443, 200), new OutboundUrlPolicy([]), silent);
      expect(outcome).toMatchObject({
        ok: false,
        kind: SendFailureKind.timeout,
        message: 'no answer within 200 ms',
      });
      expect(performance.now() - started).toBeLessThan(2_000);
    });
  });
});
