import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { forwardedSignatureHeader } from '@formline/contracts';
import { forwardingHeaders, forwardingKey } from '@formline/http-edge';
import {
  callApi,
  eventually,
  rawRequest,
  sendReadingEarlyAnswer,
  testMediaForwardingKey,
  useTestRegions,
} from '@formline/testing';

// Respondents' files stream end to end: the gateway decides on an upload
// before reading its body (access, budgets, form, region, question) and then
// passes the body on to the media app as it arrives; the media app writes it
// to the region's file store as it arrives and keeps it only whole; downloads
// come back the same way. The file store is the media app's alone: the
// responses service's deletes of bytes go through it.
describe('respondent files, streamed', () => {
  // Large beside the garbage a streaming process leaves to the collector
  // (freed chunks are reclaimed in batches of tens of MB), so that a body held
  // whole stands out.
  const maxBytes = 256 * 1024 * 1024;
  const fixture = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses', 'media'],
    extraEnv: ({ scratchDir }) => ({ FILE_STORAGE_DIR: scratchDir, FILE_MAX_BYTES: String(maxBytes) }),
    accounts: { alice: 'us' },
  });
  const { regions, accounts, scratchDir } = fixture;
  const { alice } = accounts;
  const base = () => regions.baseUrl('us');
  const stack = () => regions.stacks.us!;
  let formId: string;
  let fieldId: string;

  const uploadPath = (name: string) => `/forms/${formId}/files/cv?filename=${name}`;
  const octets = { 'content-type': 'application/octet-stream' };
  // Every file in the store's folder of the question, temporary ones included.
  const storedFiles = async (): Promise<string[]> =>
    (await readdir(join(scratchDir, 'us', 'forms', formId, fieldId)).catch(() => [] as string[])).sort();
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  // How much a process's resident memory grew at most while `work` ran (sampled every 10 ms).
  async function growthWhile(pid: number, work: () => Promise<void>): Promise<number> {
    const resident = async () =>
      Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
    const before = await resident();
    let most = before;
    let working = true;
    const sampling = (async () => {
      while (working) {
        most = Math.max(most, await resident());
        await sleep(10);
      }
    })();
    try {
      await work();
    } finally {
      working = false;
      await sampling;
    }
    return most - before;
  }

  const submitWith = async (fileUrl: string) => {
    const submitted = await callApi(`${base()}/forms/${formId}/submissions`, {
      method: 'POST',
      body: { answers: [{ field: { ref: 'cv' }, type: 'file_url', file_url: fileUrl }] },
    });
    expect(submitted.status).toBe(201);
    return {
      responseId: submitted.body.response_id as string,
      shown: submitted.body.answers[0].file_url as string,
    };
  };

  beforeAll(async () => {
    formId = await fixture.createForm(alice, {
      title: 'Large files',
      fields: [{ ref: 'cv', title: 'Your file', type: 'file_upload' }],
    });
    fieldId = (await fixture.api(alice, 'GET', `/forms/${formId}`)).body.fields[0].id as string;
  });

  it('passes an upload of FILE_MAX_BYTES through the gateway, and its download back, without holding it', async () => {
    const bytes = Buffer.alloc(maxBytes, randomBytes(4096));
    const gateway = stack().app('gateway').pid!;
    let uploaded = { file_url: '', file_name: '', size: 0 };
    const uploadGrowth = await growthWhile(gateway, async () => {
      const answer = await fetch(`${base()}${uploadPath('large.bin')}`, {
        method: 'POST',
        headers: { ...octets, authorization: `bearer ${alice.token}` },
        body: bytes,
      });
      expect(answer.status).toBe(201);
      uploaded = (await answer.json()) as typeof uploaded;
    });
    expect(uploaded.size).toBe(maxBytes);
    expect(sha256(await readFile(join(scratchDir, 'us', 'forms', formId, fieldId, uploaded.file_name)))).toBe(
      sha256(bytes),
    );
    const { shown } = await submitWith(uploaded.file_url);
    const downloaded = createHash('sha256');
    const downloadGrowth = await growthWhile(gateway, async () => {
      const answer = await fetch(shown, { headers: { authorization: `bearer ${alice.token}` } });
      expect([answer.status, answer.headers.get('content-length')]).toEqual([200, String(maxBytes)]);
      for await (const chunk of answer.body!) downloaded.update(chunk);
    });
    expect(downloaded.digest('hex')).toBe(sha256(bytes));
    // Held whole, the file alone would grow the gateway by its size.
    process.stdout.write(
      `gateway memory growth: upload ${(uploadGrowth / 2 ** 20).toFixed(1)} MiB, download ${(downloadGrowth / 2 ** 20).toFixed(1)} MiB, file ${maxBytes / 2 ** 20} MiB\n`,
    );
    expect(uploadGrowth).toBeLessThan(maxBytes / 3);
    expect(downloadGrowth).toBeLessThan(maxBytes / 3);
  });

  it('refuses an upload declared over FILE_MAX_BYTES, sent slowly, with 413 before reading it, and stores nothing', async () => {
    const before = await storedFiles();
    const exchange = rawRequest(base(), {
      method: 'POST',
      path: uploadPath('huge.bin'),
      headers: octets,
      declaredLength: maxBytes + 1,
      body: Buffer.alloc(1024, 1),
    });
    // A slow client: a little more every 50 ms, until the answer comes.
    const trickle = setInterval(() => exchange.write(Buffer.alloc(1024, 1)), 50);
    const answer = await exchange.answer;
    clearInterval(trickle);
    exchange.close();
    expect([answer?.status, answer?.body]).toEqual([
      413,
      { code: 'PAYLOAD_TOO_LARGE', description: `A file may hold at most ${maxBytes} bytes.` },
    ]);
    expect(await storedFiles()).toEqual(before);
  });

  it('writes an upload to the store as it arrives, and keeps nothing of one its client abandons', async () => {
    const before = await storedFiles();
    const exchange = rawRequest(base(), {
      method: 'POST',
      path: uploadPath('abandoned.bin'),
      headers: octets,
      declaredLength: 8 * 1024 * 1024,
      body: Buffer.alloc(1024 * 1024, 2),
    });
    // The first megabyte reaches the store while the rest is not sent yet.
    const writing = await eventually(storedFiles, (names) => names.some((name) => name.endsWith('.part')));
    expect(writing.filter((name) => !before.includes(name))).toEqual([
      expect.stringMatching(/^[A-Za-z0-9]{16}-abandoned\.bin\.[0-9a-f]{12}\.part$/),
    ]);
    exchange.close();
    // Cut off, it leaves nothing: no partial file under its name, no temporary file.
    expect(await eventually(storedFiles, (names) => names.length === before.length)).toEqual(before);
  });

  // As the gateway signs what it forwards (media-forwarding contract).
  const signedBy = (key: string, method: string, url: string) =>
    forwardingHeaders(forwardingKey(key), { method, url, accountId: undefined });

  it('leaves the media app to bound what it stores: 413 past FILE_MAX_BYTES, 411 without a length', async () => {
    const before = await storedFiles();
    const media = `http://127.0.0.1:${stack().settings.mediaPort}`;
    const path = `/respondent-files/${formId}/${fieldId}?filename=direct.bin`;
    const signed = signedBy(testMediaForwardingKey, 'POST', path);
    const over = await sendReadingEarlyAnswer(media, {
      method: 'POST',
      path,
      headers: { ...octets, ...signed },
      declaredLength: maxBytes + 1,
      body: Buffer.alloc(64 * 1024, 3),
    });
    expect([over.status, over.body?.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const chunked = await sendReadingEarlyAnswer(media, {
      method: 'POST',
      path,
      head:
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/octet-stream\r\n` +
        `${forwardedSignatureHeader}: ${signed[forwardedSignatureHeader]}\r\n` +
        'transfer-encoding: chunked\r\n\r\n',
      body: `400\r\n${'x'.repeat(1024)}\r\n`,
    });
    expect([chunked.status, chunked.body?.code]).toEqual([411, 'LENGTH_REQUIRED']);
    expect(await storedFiles()).toEqual(before);
  });

  it('lets into the media app only what the gateway signed, before reading a byte of it', async () => {
    const before = await storedFiles();
    const media = `http://127.0.0.1:${stack().settings.mediaPort}`;
    const path = `/respondent-files/${formId}/${fieldId}?filename=forged.bin`;
    const refusals = [
      {},
      signedBy(randomBytes(32).toString('base64'), 'POST', path),
      signedBy(testMediaForwardingKey, 'POST', `${path}x`),
      signedBy(testMediaForwardingKey, 'GET', path),
    ];
    for (const headers of refusals) {
      const answer = await sendReadingEarlyAnswer(media, {
        method: 'POST',
        path,
        headers: { ...octets, ...headers },
        declaredLength: 1024 * 1024,
        body: Buffer.alloc(64 * 1024, 4),
      });
      expect([answer.status, answer.body?.code]).toEqual([401, 'AUTHENTICATION_FAILED']);
    }
    // A read and an image route likewise: reaching media's port is not enough.
    for (const route of [`/respondent-files/${formId}/${fieldId}/any.bin`, '/images']) {
      const answer = await fetch(`${media}${route}`);
      expect(answer.status).toBe(401);
    }
    expect(await storedFiles()).toEqual(before);
  });

  it("deletes a response's file through the media app: refused while it is away, done once it is back", async () => {
    const uploaded = await fetch(`${base()}${uploadPath('deleted.txt')}`, {
      method: 'POST',
      headers: octets,
      body: 'deleted with its response',
    });
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { file_url: string; file_name: string };
    const { responseId } = await submitWith(file.file_url);
    const remove = () =>
      fixture.api(alice, 'DELETE', `/forms/${formId}/responses?included_response_ids=${responseId}`);

    await stack().app('media').stop();
    const refused = await remove();
    expect([refused.status, refused.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    // Nothing was deleted: the response and its file stay, to be deleted again.
    const listed = await fixture.api(
      alice,
      'GET',
      `/forms/${formId}/responses?included_response_ids=${responseId}`,
    );
    expect(listed.body.items).toHaveLength(1);
    expect(await storedFiles()).toContain(file.file_name);

    await stack().restart('media');
    const deleted = await remove();
    expect(deleted.status).toBe(200);
    expect(await storedFiles()).not.toContain(file.file_name);
  });
});
