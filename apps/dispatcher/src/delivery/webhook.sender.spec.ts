import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SendFailureKind, WebhookUrlPolicy } from '@formline/webhook-delivery';
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
  const send = (policy = new WebhookUrlPolicy(['127.0.0.1']), target = url()) =>
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
    expect(await send(new WebhookUrlPolicy([]))).toMatchObject({
      ok: false,
      kind: SendFailureKind.address_refused,
    });
    expect(received).toHaveLength(0);
  });

  it('lets an allow-listed name reach the internal address it resolves to', async () => {
    const port = (server.address() as AddressInfo).port;
    const policy = new WebhookUrlPolicy(['localhost']);
    const outcome = await sendWebhook(
      { url: `http://localhost:${port}/hook`, verifySsl: true, body: '{}', headers: {}, timeoutMs: 2_000 },
      policy,
    );
    expect(outcome).toMatchObject({ ok: true });
  });
});
