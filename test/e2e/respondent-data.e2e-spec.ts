import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { callApi, eventually, type ApiResponse, type TestAccount, useTestRegions } from '@formline/testing';

// Typeform's Insights summary and its right-to-be-forgotten endpoint, over
// both regions: counted and deleted only where the account's responses live;
// the deletion is a job whose id the call answers with at once, and whose
// state its account reads until it is done.
describe('insights and right to be forgotten', () => {
  const fixture = useTestRegions({
    apps: ['gateway', 'global', 'responses', 'webhooks', 'media'],
    accounts: { alice: 'us', bob: 'eu' },
    // Small batches: the job takes several.
    extraEnv: ({ scratchDir }) => ({ FILE_STORAGE_DIR: scratchDir, ERASURE_BATCH_SIZE: '2' }),
  });
  const { scratchDir } = fixture;
  const { regions, api, accounts } = fixture;
  const webhooksDb = fixture.webhooksDb.us;
  const responsesDb = fixture.responsesDb.us;
  const { alice, bob } = accounts;
  let formId: string;
  let fieldIds: Record<string, string>;
  const tokens: string[] = [];

  beforeAll(async () => {
    const form = await api(alice, 'POST', '/forms', {
      title: 'Contact',
      fields: [
        { ref: 'email', title: 'Email', type: 'email' },
        { ref: 'note', title: 'Note', type: 'long_text' },
        {
          ref: 'pick',
          title: 'Pick',
          type: 'multiple_choice',
          properties: { choices: [{ label: 'A' }, { label: 'B' }] },
        },
        { ref: 'intro', title: 'Hello', type: 'statement' },
      ],
      hidden: ['contact'],
    });
    expect(form.status).toBe(201);
    formId = form.body.id;
    fieldIds = Object.fromEntries(
      (form.body.fields as Array<{ id: string; ref: string }>).map((field) => [field.ref, field.id]),
    );
    const hook = await api(alice, 'PUT', `/forms/${formId}/webhooks/rtbf`, {
      url: 'http://127.0.0.1:9/hook',
      enabled: true,
    });
    expect(hook.status).toBe(200);
    const submissions = [
      { email: 'ana@example.com', pick: 'A' },
      { email: 'carl@example.com', note: 'Please write to ANA@example.com instead', pick: 'B' },
      { email: 'dan@example.com', contact: 'Ana@Example.com' },
      { email: 'bob@example.com', note: 'nothing to see' },
    ];
    for (const s of submissions) {
      const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
        method: 'POST',
        body: {
          answers: [
            { field: { ref: 'email' }, type: 'email', email: s.email },
            ...(s.note ? [{ field: { ref: 'note' }, type: 'text', text: s.note }] : []),
            ...(s.pick ? [{ field: { ref: 'pick' }, type: 'choice', choice: { label: s.pick } }] : []),
          ],
          hidden: s.contact ? { contact: s.contact } : {},
        },
      });
      expect(response.status).toBe(201);
      tokens.push(response.body.token);
    }
  });

  const summary = (account: TestAccount, id: string, region = account.region): Promise<ApiResponse> =>
    api(account, 'GET', `/insights/${id}/summary`, undefined, region);

  it("summarises the form's responses in Typeform's shape", async () => {
    const response = await summary(alice, formId);
    expect(response.status).toBe(200);
    const counters = {
      responses_count: 4,
      total_visits: 4,
      unique_visits: 4,
      completion_rate: 100,
      average_time: expect.any(Number),
    };
    expect(response.body).toEqual({
      fields: [
        { id: fieldIds.email, ref: 'email', title: 'Email', type: 'email', views: 4, dropoffs: 0 },
        { id: fieldIds.note, ref: 'note', title: 'Note', type: 'long_text', views: 2, dropoffs: 0 },
        { id: fieldIds.pick, ref: 'pick', title: 'Pick', type: 'multiple_choice', views: 2, dropoffs: 0 },
      ],
      form: {
        summary: counters,
        platforms: [
          {
            platform: 'desktop',
            ...counters,
            responses_count: 0,
            total_visits: 0,
            unique_visits: 0,
            completion_rate: 0,
          },
          { platform: 'other', ...counters },
          {
            platform: 'phone',
            ...counters,
            responses_count: 0,
            total_visits: 0,
            unique_visits: 0,
            completion_rate: 0,
          },
          {
            platform: 'tablet',
            ...counters,
            responses_count: 0,
            total_visits: 0,
            unique_visits: 0,
            completion_rate: 0,
          },
        ],
      },
    });
  });

  it("counts nothing on the other region, and hides other accounts' forms", async () => {
    const elsewhere = await summary(alice, formId, 'eu');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.form.summary).toMatchObject({ responses_count: 0, total_visits: 0 });
    expect((elsewhere.body.fields as Array<{ views: number }>).map((field) => field.views)).toEqual([
      0, 0, 0,
    ]);
    expect((await summary(bob, formId, 'us')).status).toBe(404);
  });

  // Files in the region's file store, by name.
  async function storedFiles(): Promise<string[]> {
    const entries = await readdir(scratchDir, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  }

  it('forgets a respondent in a job: their responses, files, events and deliveries, and only theirs', async () => {
    const deliveries = () =>
      webhooksDb.delivery.findMany({ where: { webhook: { formId } }, select: { body: true } });
    expect((await eventually(deliveries, (rows) => rows.length === 4)).length).toBe(4);

    // Another form, whose respondent sent a file.
    const withFile = await api(alice, 'POST', '/forms', {
      title: 'Send a file',
      fields: [
        { ref: 'email', title: 'Email', type: 'email' },
        { ref: 'cv', title: 'CV', type: 'file_upload' },
      ],
    });
    expect(withFile.status).toBe(201);
    const fileFormId = withFile.body.id as string;
    const uploaded = await callApi(
      `${regions.baseUrl('us')}/forms/${fileFormId}/files/cv?filename=cv-${randomUUID()}.txt`,
      { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, rawBody: 'the bytes' },
    );
    expect(uploaded.status).toBe(201);
    const { file_url: fileUrl, file_name: fileName } = uploaded.body as {
      file_url: string;
      file_name: string;
    };
    const withFileAnswer = await callApi(`${regions.baseUrl('us')}/forms/${fileFormId}/submissions`, {
      method: 'POST',
      body: {
        answers: [
          { field: { ref: 'email' }, type: 'email', email: 'ana@example.com' },
          { field: { ref: 'cv' }, type: 'file_url', file_url: fileUrl },
        ],
      },
    });
    expect(withFileAnswer.status).toBe(201);
    expect(await storedFiles()).toContainEqual(expect.stringContaining(fileName));

    expect((await api(alice, 'DELETE', `/rtbf/${bob.accountId}/responses`, ['ana@example.com'])).status).toBe(
      404,
    );
    const wrongRegion = await api(alice, 'DELETE', `/rtbf/${alice.accountId}/responses`, ['a@b.c'], 'eu');
    expect(wrongRegion.status).toBe(421);
    expect(wrongRegion.body.code).toBe('WRONG_REGION');
    for (const bad of [[], {}, ['x'.repeat(400)]]) {
      expect((await api(alice, 'DELETE', `/rtbf/${alice.accountId}/responses`, bad)).status).toBe(400);
    }

    // A dead-lettered event PostgreSQL cannot parse as JSON (a lone surrogate
    // escape) sits in the same outbox: the erasure must not trip on it.
    const unparsable = randomUUID();
    await responsesDb.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, subject, payload, created_at, dead_lettered_at)
       VALUES ($1, 'poison', $2::json, now(), now())`,
      unparsable,
      `{"account_id":"${alice.accountId}","form_response":{"token":"x\\ud800y"}}`,
    );
    const called = await api(alice, 'DELETE', `/rtbf/${alice.accountId}/responses`, ['ANA@example.com']);
    expect(called.status).toBe(200);
    expect(called.body).toEqual([expect.any(String)]);
    const [jobId] = called.body as string[];
    const jobPath = `/rtbf/${alice.accountId}/jobs/${jobId}`;
    const job = await eventually(
      () => api(alice, 'GET', jobPath),
      (read) => read.status !== 200 || read.body.state === 'done' || read.body.state === 'failed',
      30_000,
    );
    await responsesDb.outboxEvent.delete({ where: { id: unparsable } });
    expect(job.status).toBe(200);
    expect(job.body).toEqual({
      id: jobId,
      account_id: alice.accountId,
      state: 'done',
      responses_deleted: 4,
      files_deleted: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      finished_at: expect.any(String),
    });
    // The addresses went with the job's end.
    const stored = await responsesDb.erasureJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(stored.emails).toEqual([]);

    const left = await api(alice, 'GET', `/forms/${formId}/responses`);
    expect((left.body.items as Array<{ token: string }>).map((item) => item.token)).toEqual([tokens[3]]);
    expect((await api(alice, 'GET', `/forms/${fileFormId}/responses`)).body.total_items).toBe(0);
    // The file went at once with its response, not a day later with the unheld uploads.
    expect(await responsesDb.upload.count({ where: { fileName } })).toBe(0);
    expect((await storedFiles()).filter((name) => name.includes(fileName))).toEqual([]);
    const bodies = (await deliveries()).map((row) => row.body);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain(tokens[3]);
    const events = await responsesDb.$queryRaw<Array<{ count: number }>>`
      SELECT count(*)::int AS count FROM outbox_events
       WHERE payload->'form_response'->>'token' = ANY(${tokens.slice(0, 3)}::text[])`;
    expect(events[0].count).toBe(0);
    expect((await summary(alice, formId)).body.form.summary.responses_count).toBe(1);

    // The job is its account's, in its region only.
    const wrongRegionJob = await api(alice, 'GET', jobPath, undefined, 'eu');
    expect(wrongRegionJob.status).toBe(421);
    expect(wrongRegionJob.body.code).toBe('WRONG_REGION');
    expect((await api(bob, 'GET', `/rtbf/${bob.accountId}/jobs/${jobId}`)).status).toBe(404);
    expect((await api(bob, 'GET', jobPath, undefined, 'us')).status).toBe(404);
    expect((await api(alice, 'GET', `/rtbf/${alice.accountId}/jobs/${randomUUID()}`)).status).toBe(404);
    expect((await api(alice, 'GET', `/rtbf/${alice.accountId}/jobs/${'x'.repeat(100)}`)).status).toBe(404);
  });

  it("deletes a bulk-deleted response's outbox events at once, and its deliveries through the webhooks service", async () => {
    const kept = tokens[3];
    const deliveriesOf = () => webhooksDb.delivery.count({ where: { responseToken: kept } });
    const eventsOf = async () =>
      (
        await responsesDb.$queryRaw<Array<{ count: number }>>`
          SELECT count(*)::int AS count FROM outbox_events WHERE response_id = ${kept}`
      )[0].count;
    expect(await eventually(deliveriesOf, (count) => count === 1)).toBe(1);
    expect(await eventsOf()).toBe(1);

    const deleted = await api(alice, 'DELETE', `/forms/${formId}/responses?included_response_ids=${kept}`);
    expect(deleted.status).toBe(200);

    expect(await eventsOf()).toBe(0);
    expect(await eventually(deliveriesOf, (count) => count === 0)).toBe(0);
    expect(await webhooksDb.deletedResponse.count({ where: { responseToken: kept } })).toBe(1);
  });
});
