import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AccessTokenPrincipal } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { isForwardedByGateway } from '@formline/http-edge';
import type { GatewayConfig } from '@formline/app-config';
import { MediaAppClient } from './media-app.client';

const key = randomBytes(32);
const keyed = { MEDIA_FORWARDING_KEY: key.toString('base64') };
// Whether media would let this request in (the gateway's signature, checked as media checks it).
const signedFor = (seen: { method?: string; url?: string; headers: IncomingHttpHeaders }) =>
  isForwardedByGateway(
    key,
    {
      method: seen.method ?? '',
      url: seen.url ?? '',
      accountId: seen.headers['x-formline-account-id'] as string | undefined,
    },
    seen.headers['x-formline-forwarded-signature'],
  );

// The gateway's side of the media app: what it forwards (and what it never
// does: a client's own account header), what it hands back, and a 503 when
// the media app is not there.
describe('MediaAppClient', () => {
  let media: Server;
  let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[];
  let gateway: FastifyInstance;
  let client: MediaAppClient;
  let principal: AccessTokenPrincipal | undefined;
  let gatewayUrl: string;

  const start = async (mediaUrl: string) => {
    client = new MediaAppClient({
      MEDIA_URL: mediaUrl,
      GATEWAY_IDLE_TIMEOUT_MS: 2_000,
      ...keyed,
    } as GatewayConfig);
    gateway = Fastify();
    gateway.decorateRequest('requestId', 'req-1');
    gateway.all('/*', async (request, reply) => {
      try {
        await client.forward(request, reply, principal, request.body ?? undefined);
      } catch (error) {
        const code = error instanceof DomainError ? error.code : 'other';
        return reply.status(599).send({ code });
      }
      return reply;
    });
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    media = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        response
          .writeHead(201, {
            'content-type': 'image/png',
            etag: '"i1"',
            'set-cookie': 'no=1',
            'x-other': 'no',
          })
          .end('png-bytes');
      });
    });
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => media.close(resolve));
  });
  beforeEach(() => {
    seen = [];
    principal = undefined;
  });
  afterEach(async () => {
    await gateway.close();
    client.onApplicationShutdown();
  });

  it('forwards method, path, query, body and the principal’s account, never a client’s account header', async () => {
    await start(`http://127.0.0.1:${(media.address() as AddressInfo).port}`);
    principal = { accountId: 'acc-9' } as AccessTokenPrincipal;
    const answer = await fetch(`${gatewayUrl}/images?x=1`, {
      method: 'POST',
      headers: {
        'x-formline-account-id': 'forged',
        cookie: 'sid=1',
        accept: 'application/json',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ image: 'AAAA' }),
    });
    expect(seen).toEqual([
      expect.objectContaining({ method: 'POST', url: '/images?x=1', body: '{"image":"AAAA"}' }),
    ]);
    expect(seen[0].headers).toMatchObject({
      'x-formline-account-id': 'acc-9',
      'x-request-id': 'req-1',
      accept: 'application/json',
    });
    expect(seen[0].headers.cookie).toBeUndefined();
    expect(signedFor(seen[0])).toBe(true);
    expect(signedFor({ ...seen[0], url: '/images?x=2' })).toBe(false);
    expect(answer.status).toBe(201);
    expect(await answer.text()).toBe('png-bytes');
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('etag')).toBe('"i1"');
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(answer.headers.get('x-other')).toBeNull();
  });

  it('sends no account for an anonymous caller, whatever the client claims', async () => {
    await start(`http://127.0.0.1:${(media.address() as AddressInfo).port}`);
    await fetch(`${gatewayUrl}/images/i1`, { headers: { 'x-formline-account-id': 'forged' } });
    expect(seen[0].headers['x-formline-account-id']).toBeUndefined();
    expect(signedFor(seen[0])).toBe(true);
  });

  it('is a SERVICE_UNAVAILABLE error when the media app does not answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await start(`http://127.0.0.1:${port}`);
    const answer = await fetch(`${gatewayUrl}/images/i1`);
    expect(await answer.json()).toEqual({ code: ErrorCode.ServiceUnavailable });
  });
});

// An upload's body goes on to the media app as it arrives, before the caller
// has sent all of it (so the gateway never holds it whole), and a caller that
// leaves mid-body cuts the media app's body short too.
describe('MediaAppClient.storeFile', () => {
  let media: Server;
  let gateway: FastifyInstance;
  let client: MediaAppClient;
  let gatewayUrl: URL;
  let firstBytes: () => void;
  let bodyEnd: (outcome: string) => void;

  beforeAll(async () => {
    media = createServer((request, response) => {
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        if (size === 0) firstBytes();
        size += chunk.length;
      });
      request.on('end', () => {
        bodyEnd('whole');
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ file_name: `AbCdEfGhIjKlMnOp-${size}.bin`, size }));
      });
      request.on('close', () => {
        if (!request.complete) bodyEnd('cut off');
      });
    });
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    client = new MediaAppClient({
      MEDIA_URL: `http://127.0.0.1:${(media.address() as AddressInfo).port}`,
      GATEWAY_IDLE_TIMEOUT_MS: 2_000,
      ...keyed,
    } as GatewayConfig);
    gateway = Fastify();
    gateway.decorateRequest('requestId', 'req-2');
    gateway.addContentTypeParser('application/octet-stream', (_request, _payload, done) => done(null));
    gateway.post('/upload', async (request) =>
      client.storeFile(request, { formId: 'f1', fieldId: 'q1', filename: 'a.bin' }),
    );
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    gatewayUrl = new URL(`http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}/upload`);
  });
  afterAll(async () => {
    await gateway.close();
    client.onApplicationShutdown();
    await new Promise((resolve) => media.close(resolve));
  });

  const upload = (length: number) => {
    const arrived = new Promise<void>((resolve) => (firstBytes = resolve));
    const ended = new Promise<string>((resolve) => (bodyEnd = resolve));
    const caller = request(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(length) },
    });
    caller.on('error', () => undefined);
    const answer = new Promise<{ status?: number; body: string }>((resolve) =>
      caller.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode, body }));
      }),
    );
    return { caller, arrived, ended, answer };
  };

  it('passes the body on as it arrives and answers what the media app stored', async () => {
    const { caller, arrived, ended, answer } = upload(2 * 65_536);
    caller.write(Buffer.alloc(65_536, 1));
    // The media app has the first half while the caller has not sent the second.
    await arrived;
    caller.end(Buffer.alloc(65_536, 2));
    expect(await ended).toBe('whole');
    expect(await answer).toEqual({
      status: 200,
      body: JSON.stringify({ file_name: 'AbCdEfGhIjKlMnOp-131072.bin', size: 131_072 }),
    });
  });

  it('cuts the media app’s body short when the caller leaves mid-body', async () => {
    const { caller, arrived, ended } = upload(2 * 65_536);
    caller.write(Buffer.alloc(65_536, 1));
    await arrived;
    caller.destroy();
    expect(await ended).toBe('cut off');
  });
});
