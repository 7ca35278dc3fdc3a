import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskObjectStore } from './local-disk.store';
import { checkObjectKey, type ObjectStore } from './object-store';
import { objectStoreFrom } from './object-storage.config';
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
      this.objects.set(path, { body, contentType: request.headers['content-type'] });
      return { status: 200, body: '', headers: { etag: '"e"' } };
    }
    if (request.method === 'GET') {
      const found = this.objects.get(path);
      if (!found) {
        const notFound = '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>no</Message></Error>';
        return { status: 404, body: notFound, headers: {} };
      }
      return { status: 200, body: found.body, headers: { 'content-type': 'application/octet-stream' } };
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
