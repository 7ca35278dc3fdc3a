import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { LocalDiskObjectStore } from './local-disk.store';
import { checkObjectKey, type ObjectStore } from './object-store';
import { objectStoreFrom } from './object-store.factory';
import { S3ObjectStore } from './s3.store';

// A fake S3 endpoint (path-style PUT, GET, multi-object DELETE) on loopback:
// the real AWS client signs and sends real HTTP to it. It keeps what it got,
// so the test sees the keys, content types and signatures that went out.
class FakeS3 {
  readonly objects = new Map<string, { body: Buffer; contentType?: string }>();
  readonly authorizations: string[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(({ status, body, headers }) => {
        response.writeHead(status, { 'content-type': 'application/xml', ...headers });
        response.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(request: IncomingMessage) {
    this.authorizations.push(request.headers.authorization ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(request.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname.slice(1));
    if (request.method === 'PUT') {
      // A streamed body comes aws-chunked (its checksum in a trailer): S3 keeps the payload.
      const chunked = /aws-chunked/.test(String(request.headers['content-encoding'] ?? ''));
      const payload = chunked ? awsChunkedPayload(body) : body;
      this.objects.set(path, { body: payload, contentType: request.headers['content-type'] });
      return { status: 200, body: '', headers: { etag: '"e"' } };
    }
    if (request.method === 'GET') {
      const found = this.objects.get(path);
      if (!found) {
        const notFound = '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>no</Message></Error>';
        return { status: 404, body: notFound, headers: {} };
      }
      return {
        status: 200,
        body: found.body,
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(found.body.length) },
      };
    }
    if (request.method === 'POST' && url.searchParams.has('delete')) {
      const bucket = path.replace(/\/$/, '');
      for (const match of body.toString().matchAll(/<Key>([^<]*)<\/Key>/g)) {
        this.objects.delete(`${bucket}/${match[1]}`);
      }
      return { status: 200, body: '<?xml version="1.0"?><DeleteResult></DeleteResult>', headers: {} };
    }
    return { status: 400, body: '', headers: {} };
  }
}

// `<hex size>[;...]\r\n<bytes>\r\n` ... `0\r\n`, then the trailers.
function awsChunkedPayload(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = lineEnd < 0 ? 0 : Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

// A body that arrives in chunks, as a request's does; `fail` makes it end in an error after them.
function arriving(chunks: string[], fail = false): Readable {
  return Readable.from(
    (function* () {
      for (const chunk of chunks) yield Buffer.from(chunk);
      if (fail) throw new Error('the client left');
    })(),
  );
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function streamRoundTrip(store: ObjectStore) {
  await store.putStream('files/form1/abc/big.bin', arriving(['hello ', 'wor', 'ld']), 'text/plain', 11);
  const opened = await store.open('files/form1/abc/big.bin');
  expect(opened?.size).toBe(11);
  expect((await readAll(opened!.body)).toString()).toBe('hello world');
  await expect(store.open('files/form1/abc/none.bin')).resolves.toBeUndefined();
}

async function roundTrip(store: ObjectStore) {
  const bytes = Buffer.from([0, 1, 2, 255]);
  await store.put('files/form1/abc/photo.png', bytes, 'image/png');
  await expect(store.get('files/form1/abc/photo.png')).resolves.toEqual(bytes);
  await expect(store.get('files/form1/abc/other.png')).resolves.toBeUndefined();
  await store.put('files/form1/abc/photo.png', Buffer.from('v2'), 'image/png');
  await expect(store.get('files/form1/abc/photo.png')).resolves.toEqual(Buffer.from('v2'));
  await store.delete(['files/form1/abc/photo.png', 'files/form1/abc/never-written']);
  await expect(store.get('files/form1/abc/photo.png')).resolves.toBeUndefined();
}

describe('object keys', () => {
  it.each(['../etc/passwd', 'a/../b', 'a//b', '/abs', 'a/./b', 'sp ace', 'a\\b', ''])('refuse %p', (key) => {
    expect(() => checkObjectKey(key)).toThrow('invalid object key');
  });
  it('accept our own shapes', () => {
    expect(checkObjectKey('images/AbC123/choice-supersize')).toBe('images/AbC123/choice-supersize');
  });
});

describe('LocalDiskObjectStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'formline-store-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes, reads, replaces and deletes objects as files under its directory', async () => {
    await roundTrip(new LocalDiskObjectStore(dir));
    // Nothing is left behind: no temporary files, the object gone.
    expect(await readdir(join(dir, 'files', 'form1', 'abc'))).toEqual([]);
  });

  it('streams an object in and out', async () => {
    await streamRoundTrip(new LocalDiskObjectStore(dir));
    expect(await readdir(join(dir, 'files', 'form1', 'abc'))).toEqual(['big.bin']);
  });

  it.each([
    ['ends short of its length', arriving(['only part']), /ended after 9 of its 20 bytes/],
    ['runs past its length', arriving(['a body longer', ' than declared']), /runs past its 20 bytes/],
    ['fails half-way', arriving(['the first part'], true), /the client left/],
  ])('keeps nothing of a streamed body that %s', async (_case, body, message) => {
    const store = new LocalDiskObjectStore(dir);
    await expect(store.putStream('files/form1/abc/cut.bin', body, 'text/plain', 20)).rejects.toThrow(message);
    // No object, and no temporary file either.
    expect(await readdir(join(dir, 'files', 'form1', 'abc'))).toEqual([]);
  });

  it('never reaches outside its directory', async () => {
    const store = new LocalDiskObjectStore(join(dir, 'inner'));
    await expect(store.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(
      'invalid object key',
    );
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('S3ObjectStore against a fake S3 endpoint', () => {
  const fake = new FakeS3();
  let endpoint: string;
  beforeAll(async () => {
    endpoint = await fake.start();
  });
  afterAll(() => fake.stop());

  it('puts, gets and deletes objects in its bucket under its prefix, signed with its key', async () => {
    const store = objectStoreFrom('FILE', {
      FILE_STORAGE: 's3',
      FILE_STORAGE_DIR: 'unused',
      FILE_S3_ENDPOINT: endpoint,
      FILE_S3_BUCKET: 'eu-files',
      FILE_S3_REGION: 'eu-central-1',
      FILE_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      FILE_S3_SECRET_ACCESS_KEY: 'secret',
      FILE_S3_PREFIX: 'formline',
    });
    expect(store).toBeInstanceOf(S3ObjectStore);
    await store.put('files/f/u/a.txt', Buffer.from('hello'), 'text/plain');
    expect(fake.objects.get('eu-files/formline/files/f/u/a.txt')).toEqual({
      body: Buffer.from('hello'),
      contentType: 'text/plain',
    });
    await roundTrip(store);
    expect(fake.objects.has('eu-files/formline/files/form1/abc/photo.png')).toBe(false);
    // Streamed in, the object is the bytes themselves (not a chunked encoding of them).
    await streamRoundTrip(store);
    expect(fake.objects.get('eu-files/formline/files/form1/abc/big.bin')?.body.toString()).toBe(
      'hello world',
    );
    expect(fake.authorizations.every((value) => value.includes('Credential=AKIDEXAMPLE/'))).toBe(true);
    expect(fake.authorizations[0]).toContain('/eu-central-1/s3/aws4_request');
    (store as S3ObjectStore).close();
  });

  it('loads the AWS SDK on its first use, not when the store is made', async () => {
    let loaded = false;
    await jest.isolateModulesAsync(async () => {
      jest.doMock('@aws-sdk/client-s3', () => {
        loaded = true;
        return jest.requireActual('@aws-sdk/client-s3');
      });
      const { S3ObjectStore: LazyStore } = await import('./s3.store.js');
      const store = new LazyStore({
        endpoint,
        bucket: 'lazy',
        region: 'eu-central-1',
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'secret',
      });
      expect(loaded).toBe(false);
      await store.put('files/lazy.txt', Buffer.from('x'), 'text/plain');
      expect(loaded).toBe(true);
      store.close();
    });
  });

  it('refuses to start as s3 without its settings, naming them', () => {
    expect(() =>
      objectStoreFrom('IMAGE', { IMAGE_STORAGE: 's3', IMAGE_STORAGE_DIR: 'x', IMAGE_S3_REGION: 'r' }),
    ).toThrow(
      'IMAGE_STORAGE is s3, but these variables are missing: IMAGE_S3_ENDPOINT, IMAGE_S3_BUCKET, IMAGE_S3_ACCESS_KEY_ID, IMAGE_S3_SECRET_ACCESS_KEY',
    );
  });
});
