import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Streams } from '@formline/contracts';
import {
  databaseUrl,
  eventually,
  findInDatabase,
  findInNatsStreams,
  findInRedis,
  type Finding,
  testInfra,
  useTestRegions,
} from '@formline/testing';

// A deleted form takes its data with it: its responses and their outbox
// events, its uploads and their bytes, its webhooks, their deliveries and
// attempts, and their jobs in the region's Redis are all gone soon after
// DELETE answers, looked for as the residency audit does, in every store
// directly (every row of every table of each database, every Redis key,
// every message of every JetStream stream, every file of the file store).
// Another form of the same account keeps all of its data: the same search
// finds it, so the search does see what it looks for.
describe('form deletion', () => {
  const fixture = useTestRegions({
    // The form's region, and the other, whose address may be the one a form is deleted through.
    regions: ['eu', 'us'],
    receiver: true,
    extraEnv: ({ scratchDir }) => ({
      FILE_STORAGE_DIR: scratchDir,
      // Small batches (several per form here) and a short settle time, so the purge ends within the test.
      FORM_PURGE_BATCH_SIZE: '4',
      FORM_PURGE_SETTLE_MS: '2000',
      // The gateway's per-form counters (keyed by the form's id: submissions,
      // uploaded bytes and files) lapse with their windows, not with the purge.
      SUBMISSION_RATE_LIMIT_WINDOW_MS: '3000',
      UPLOAD_BUDGET_WINDOW_MS: '3000',
    }),
    accounts: { owner: 'eu' },
  });
  const { receiver, accounts, scratchDir } = fixture;
  const submissions = 10;

  interface Planted {
    formId: string;
    webhookIds: string[];
    tokens: string[];
    markers: string[];
    eventIds: string[];
    fileNames: string[];
    /** When its last submission was counted against the form's rate limits. */
    lastCountedAt: number;
  }

  // A form with a text and a file question, two webhooks (one answered, one
  // failing, so its deliveries wait in Redis for a retry), submissions (the
  // first with a file), and one upload no response holds.
  async function plant(tag: string): Promise<Planted> {
    const { owner } = accounts;
    const base = fixture.baseUrl('eu');
    const formId = await fixture.createForm(owner, {
      title: `Deleted with its data ${tag}`,
      fields: [
        { ref: 'said', title: 'Say', type: 'short_text' },
        { ref: 'cv', title: 'CV', type: 'file_upload' },
      ],
    });
    const planted: Planted = {
      formId,
      webhookIds: [],
      tokens: [],
      markers: [],
      eventIds: [],
      fileNames: [],
      lastCountedAt: 0,
    };
    receiver.answer(`/${tag}-failing`, () => ({ status: 503 }));
    for (const [hook, path] of [
      ['ok', `/${tag}`],
      ['failing', `/${tag}-failing`],
    ]) {
      const created = await fixture.api(owner, 'PUT', `/forms/${formId}/webhooks/${hook}`, {
        url: receiver.url(path),
        enabled: true,
      });
      expect(created.status).toBe(200);
      planted.webhookIds.push(created.body.id as string);
    }
    const upload = async (name: string) => {
      const uploaded = await fetch(`${base}/forms/${formId}/files/cv?filename=${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.from(`bytes of ${name} ${randomUUID()}`),
      });
      expect(uploaded.status).toBe(201);
      const file = (await uploaded.json()) as { file_url: string; file_name: string };
      planted.fileNames.push(file.file_name);
      return file.file_url;
    };
    await upload(`loose-${tag}.txt`);
    for (let i = 0; i < submissions; i++) {
      const marker = `form-deletion-${tag}-${randomUUID()}`;
      const answers: unknown[] = [{ field: { ref: 'said' }, type: 'text', text: marker }];
      if (i === 0)
        answers.push({ field: { ref: 'cv' }, type: 'file_url', file_url: await upload(`cv-${tag}.txt`) });
      const submitted = await fixture.api(owner, 'POST', `/forms/${formId}/submissions`, { answers });
      expect(submitted.status).toBe(201);
      planted.markers.push(marker);
      planted.tokens.push(submitted.body.token as string);
    }
    planted.lastCountedAt = Date.now();
    const delivered = await receiver.until(`/${tag}`, (requests) => requests.length >= submissions, 30_000);
    planted.eventIds = delivered.map((request) => String(request.headers['webhook-id']));
    // The failing webhook's first attempts are in, their retries waiting in Redis.
    await receiver.until(`/${tag}-failing`, (requests) => requests.length >= submissions, 30_000);
    return planted;
  }

  const needles = (planted: Planted) => [
    planted.formId,
    ...planted.webhookIds,
    ...planted.tokens,
    ...planted.markers,
    ...planted.eventIds,
    ...planted.fileNames,
  ];

  // Every file of the file store, by its path and its bytes.
  async function findInFileStore(root: string, wanted: readonly string[]): Promise<Finding[]> {
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    const findings: Finding[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      const text = `${file}\n${await readFile(file, 'utf8')}`;
      for (const needle of wanted)
        if (text.includes(needle)) findings.push({ store: 'files', where: file, needle });
    }
    return findings;
  }

  // Every store of both regions, and the global database.
  async function search(wanted: readonly string[]): Promise<Finding[]> {
    const infra = testInfra();
    const regional = await Promise.all(
      (['eu', 'us'] as const).map(async (region) => [
        ...(await findInDatabase(databaseUrl(infra, `formline_responses_${region}`), wanted)),
        ...(await findInDatabase(databaseUrl(infra, `formline_webhooks_${region}`), wanted)),
        ...(await findInRedis(infra.redisUrl[region], wanted)),
        ...(await findInNatsStreams(infra.natsUrl[region], wanted)),
      ]),
    );
    return [
      ...regional.flat(),
      ...(await findInDatabase(databaseUrl(infra, 'formline_global'), wanted)),
      ...(await findInFileStore(scratchDir, wanted)),
    ];
  }

  // Submission events stay on the RESPONSES stream until its limits, whatever
  // their form (docs/data-lifecycle.md): the one store this purge does not reach.
  const outsideResponsesStream = (findings: Finding[]) =>
    findings.filter((finding) => !finding.where.startsWith(`${Streams.responses.name}#`));

  // The purges are done when neither database of the form's region has the
  // form's rows or a purge any more.
  // The gateway's per-form counters lapse with their 3 s window (extraEnv),
  // not with the purge, which may end sooner: the search waits them out.
  async function countersLapsed(planted: Planted): Promise<void> {
    const wait = planted.lastCountedAt + 3000 + 1000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  async function purged(formId: string): Promise<void> {
    const rowsLeft = async () => {
      const [responses] = await fixture.responsesDb.eu.$queryRaw<Array<{ left: bigint }>>`
        SELECT (SELECT count(*) FROM responses WHERE form_id = ${formId})
             + (SELECT count(*) FROM uploads WHERE form_id = ${formId})
             + (SELECT count(*) FROM form_purges) AS left`;
      const [webhooks] = await fixture.webhooksDb.eu.$queryRaw<Array<{ left: bigint }>>`
        SELECT (SELECT count(*) FROM webhooks WHERE form_id = ${formId})
             + (SELECT count(*) FROM form_purges) AS left`;
      return Number(responses.left) + Number(webhooks.left);
    };
    expect(await eventually(rowsLeft, (left) => left === 0, 60_000, 100)).toBe(0);
  }

  it('leaves nothing of a deleted form in any store, and all of another form', async () => {
    const deleted = await plant('deleted');
    const kept = await plant('kept');
    const where = (findings: Finding[]) => new Set(findings.map((finding) => finding.store.split(' ')[0]));

    // Before: the search finds the form's data in each kind of store.
    const before = await search(needles(deleted));
    expect(where(before)).toEqual(new Set(['database', 'redis', 'nats', 'files']));

    const deletion = await fixture.api(accounts.owner, 'DELETE', `/forms/${deleted.formId}`);
    expect(deletion.status).toBe(204);

    const started = Date.now();
    await purged(deleted.formId);
    process.stdout.write(`form deletion: purged in ${Date.now() - started} ms after the delete answered\n`);
    // Then every store, whole.
    await countersLapsed(deleted);
    expect(outsideResponsesStream(await search(needles(deleted)))).toEqual([]);

    // The other form of the account keeps everything, in every store.
    const found = await search(needles(kept));
    const missing = needles(kept).filter(
      (needle) => !found.some((finding) => finding.needle === needle && finding.store.startsWith('database')),
    );
    expect(missing).toEqual([]);
    expect(where(found)).toEqual(new Set(['database', 'redis', 'nats', 'files']));
    const listed = await fixture.api(accounts.owner, 'GET', `/forms/${kept.formId}/responses`);
    expect(listed.body.total_items).toBe(submissions);
  });

  it("purges a form deleted through the other region's address in the form's own region", async () => {
    const deleted = await plant('elsewhere');
    // Forms are served by both base addresses; the form's data is in eu.
    const deletion = await fixture.api(accounts.owner, 'DELETE', `/forms/${deleted.formId}`, undefined, 'us');
    expect(deletion.status).toBe(204);
    await purged(deleted.formId);
    await countersLapsed(deleted);
    expect(outsideResponsesStream(await search(needles(deleted)))).toEqual([]);
  });
});
