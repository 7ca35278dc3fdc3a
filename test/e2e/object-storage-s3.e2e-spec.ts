import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createResponsesDatabase } from '@formline/db';
import {
  S3ChecksumProxy,
  callApi,
  createTestAccount,
  databaseUrl,
  eventually,
  startTestRegions,
  testGlobalDatabase,
  testInfra,
  type TestAccount,
  type TestRegions,
  uploadTestImage,
} from '@formline/testing';
import S3rver from 's3rver';

// The S3 object store against a real S3-compatible server (s3rver, pure
// JavaScript, started here on 127.0.0.1): images go to the image bucket and are
// served and deleted from it; respondents' files go to the bucket of their
// form's region (EU files in the EU bucket, never the US one), are downloaded
// from it, and are deleted from it when pruned.
describe('object storage on S3', () => {
  const db = testGlobalDatabase();
  const responsesDb = createResponsesDatabase(databaseUrl(testInfra(), 'formline_responses_eu'));
  const buckets = { images: 'formline-images', us: 'formline-files-us', eu: 'formline-files-eu' };
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  let server: S3rver;
  let checksums: S3ChecksumProxy;
  let s3: S3Client;
  let storageDir: string;
  let regions: TestRegions;
  let bob: TestAccount; // eu

  const keysIn = async (bucket: string): Promise<string[]> =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? [])
      .map((object) => object.Key ?? '')
      .sort();
  const objectIn = async (bucket: string, key: string): Promise<Buffer> => {
    const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from(await answer.Body!.transformToByteArray());
  };

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'formline-s3-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: storageDir,
      configureBuckets: Object.values(buckets).map((name) => ({ name })),
    });
    const { port } = await server.run();
    s3 = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials,
    });
    // The apps reach s3rver through a proxy that checks the bodies' checksums, as S3 does.
    checksums = await S3ChecksumProxy.start(`http://127.0.0.1:${port}`);
    const endpoint = checksums.endpoint;
    bob = await createTestAccount(db, 'eu');
    regions = await startTestRegions({
      name: 'object-storage-s3',
      apps: ['gateway', 'global', 'responses', 'media'],
      extraEnv: {
        IMAGE_STORAGE: 's3',
        IMAGE_S3_ENDPOINT: endpoint,
        IMAGE_S3_BUCKET: buckets.images,
        IMAGE_S3_ACCESS_KEY_ID: credentials.accessKeyId,
        IMAGE_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        FILE_STORAGE: 's3',
        FILE_S3_ENDPOINT: endpoint,
        FILE_S3_ACCESS_KEY_ID: credentials.accessKeyId,
        FILE_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        RETENTION_INTERVAL_MS: '500',
      },
      // Each region its own file bucket, as the Kubernetes overlays have it.
      regionEnv: {
        us: { FILE_S3_BUCKET: buckets.us, FILE_S3_REGION: 'us-east-1' },
        eu: { FILE_S3_BUCKET: buckets.eu, FILE_S3_REGION: 'eu-central-1' },
      },
    });
  });

  afterAll(async () => {
    await regions?.stop();
    await checksums?.stop();
    s3?.destroy();
    await server?.close();
    await Promise.all([db.$disconnect(), responsesDb.$disconnect()]);
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
    regions?.assertQuietStart();
  });

  it('writes images to the image bucket, serves them from it, and deletes them from it', async () => {
    const base = regions.baseUrl('eu');
    const src = await uploadTestImage(base, bob.token, 'logo.png');
    const id = src.slice(src.lastIndexOf('/') + 1);
    const stored = (await keysIn(buckets.images)).filter((key) => key.includes(id));
    expect(stored).toHaveLength(1);
    const served = await fetch(`${base}/images/${id}`, { headers: { accept: 'image/*' } });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(await objectIn(buckets.images, stored[0]));
    // A sized variant is rendered once and kept in the bucket too.
    expect((await fetch(`${base}/images/${id}/image/thumbnail`)).status).toBe(200);
    expect((await keysIn(buckets.images)).filter((key) => key.includes(id)).length).toBeGreaterThan(1);

    const deleted = await callApi(`${base}/images/${id}`, { token: bob.token, method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await keysIn(buckets.images)).filter((key) => key.includes(id))).toEqual([]);
    expect((await fetch(`${base}/images/${id}`, { headers: { accept: 'image/*' } })).status).toBe(404);
  });

  it("keeps an EU form's files in the EU bucket only, serves them from it, and deletes them from it", async () => {
    const base = regions.baseUrl('eu');
    const created = await callApi(`${base}/forms`, {
      token: bob.token,
      method: 'POST',
      body: { title: 'CVs', fields: [{ ref: 'cv', title: 'Your CV', type: 'file_upload' }] },
    });
    expect(created.status).toBe(201);
    const formId: string = created.body.id;
    const fieldId: string = created.body.fields[0].id;
    const upload = async (name: string, bytes: Buffer) => {
      const answer = await fetch(`${base}/forms/${formId}/files/cv?filename=${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      expect(answer.status).toBe(201);
      return (await answer.json()) as { file_url: string; file_name: string };
    };
    const cv = Buffer.from('%PDF-1.4\n% kept\n');
    const kept = await upload('cv.pdf', cv);
    const orphan = await upload('orphan.pdf', Buffer.from('%PDF-1.4\n% orphan\n'));
    const keyOf = (fileName: string) => `eu/forms/${formId}/${fieldId}/${fileName}`;
    expect(await keysIn(buckets.eu)).toEqual(
      expect.arrayContaining([keyOf(kept.file_name), keyOf(orphan.file_name)]),
    );
    expect((await keysIn(buckets.us)).filter((key) => key.includes(formId))).toEqual([]);
    expect(await objectIn(buckets.eu, keyOf(kept.file_name))).toEqual(cv);

    const submitted = await callApi(`${base}/forms/${formId}/submissions`, {
      method: 'POST',
      body: { answers: [{ field: { ref: 'cv' }, type: 'file_url', file_url: kept.file_url }] },
    });
    expect(submitted.status).toBe(201);
    const got = await fetch(submitted.body.answers[0].file_url as string, {
      headers: { authorization: `bearer ${bob.token}` },
    });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(cv);

    // An upload no response holds, once old, is pruned: its object leaves the bucket.
    await responsesDb.upload.updateMany({
      where: { fileName: orphan.file_name },
      data: { createdAt: new Date(Date.now() - 2 * 86_400_000) },
    });
    const left = await eventually(
      () => keysIn(buckets.eu),
      (keys) => !keys.includes(keyOf(orphan.file_name)),
    );
    expect(left).toContain(keyOf(kept.file_name));
    expect(left).not.toContain(keyOf(orphan.file_name));
  });

  // Runs after the tests above wrote and deleted objects through the proxy.
  it('sends every object and every batch delete with a checksum that matches its bytes, as S3 checks', () => {
    const writes = checksums.requests.filter((r) => r.method === 'PUT');
    const deletes = checksums.requests.filter((r) => r.method === 'POST' && r.path.includes('delete'));
    expect(writes.length).toBeGreaterThanOrEqual(3);
    expect(deletes.length).toBeGreaterThanOrEqual(2);
    for (const checked of [...writes, ...deletes]) {
      expect(checked.mismatched).toEqual([]);
      expect(checked.verified.filter((name) => name !== 'x-amz-content-sha256')).not.toEqual([]);
    }
  });
});
