import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  callApi,
  eventually,
  fetchReadingEarlyAnswer,
  type TestAccount,
  testArtifactPath,
  testInfra,
  useTestRegions,
} from '@formline/testing';

// `file_upload` questions: a respondent uploads to the region of the form's
// account (EU files land in the EU store only), answers with the `file_url`,
// and the form's owner downloads it through Typeform's response files
// endpoint; the page does the same in a browser, with the keyboard.
describe('file uploads', () => {
  const fixture = useTestRegions({
    apps: ['gateway', 'global', 'responses', 'media'],
    browser: true,
    extraEnv: ({ scratchDir }) => ({
      FILE_STORAGE_DIR: scratchDir,
      FILE_MAX_BYTES: String(64 * 1024),
      // Rounds often, so the pruning test sees one soon after it ages the uploads.
      RETENTION_INTERVAL_MS: '500',
    }),
    accounts: { alice: 'us', bob: 'eu' },
  });
  const { regions, browser, scratchDir: storageDir, accounts } = fixture;
  const responsesDb = fixture.responsesDb.eu;
  const { alice, bob } = accounts;
  let formId: string; // bob's
  let fieldId: string; // its file_upload question
  const pdf = Buffer.from('%PDF-1.4\n% a tiny test file\n');

  const base = (region: 'us' | 'eu') => regions.baseUrl(region);
  const uploadTo = (region: 'us' | 'eu', field: string, name: string, body: Buffer, id = formId) =>
    fetchReadingEarlyAnswer(
      `${base(region)}/forms/${id}/files/${field}?filename=${encodeURIComponent(name)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body,
      },
    );
  const download = (account: TestAccount, region: 'us' | 'eu', responseId: string, fileName: string) =>
    fetch(`${base(region)}/forms/${formId}/responses/${responseId}/fields/${fieldId}/files/${fileName}`, {
      headers: { authorization: `bearer ${account.token}` },
    });
  const storedFiles = async (region: string) =>
    (await readdir(join(storageDir, region, 'forms', formId, fieldId)).catch(() => [])).sort();

  beforeAll(async () => {
    const created = await callApi(`${base('us')}/forms`, {
      token: bob.token,
      method: 'POST',
      body: {
        title: 'Send us your CV',
        fields: [
          { ref: 'name', title: 'Your name?', type: 'short_text', validations: { required: true } },
          { ref: 'cv', title: 'Your CV', type: 'file_upload', validations: { required: true } },
        ],
      },
    });
    expect(created.status).toBe(201);
    formId = created.body.id;
    fieldId = created.body.fields[1].id;
  });

  it("stores an upload in the form's region only, and the owner alone downloads it from the response", async () => {
    const uploaded = await uploadTo('eu', 'cv', '../../etc/my CV (final).pdf', pdf);
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { file_url: string; file_name: string; size: number };
    expect(file.file_name).toMatch(/^[A-Za-z0-9]{16}-my_CV__final_.pdf$/);
    expect(file).toEqual({
      file_url: `${base('eu')}/forms/${formId}/files/${fieldId}/${file.file_name}`,
      file_name: file.file_name,
      size: pdf.length,
    });
    // EU files stay in the EU store.
    expect(await storedFiles('eu')).toEqual([file.file_name]);
    expect(await storedFiles('us')).toEqual([]);
    expect(await readFile(join(storageDir, 'eu', 'forms', formId, fieldId, file.file_name))).toEqual(pdf);

    const submitted = await callApi(`${base('eu')}/forms/${formId}/submissions`, {
      method: 'POST',
      body: {
        answers: [
          { field: { ref: 'name' }, type: 'text', text: 'Ada' },
          { field: { ref: 'cv' }, type: 'file_url', file_url: file.file_url },
        ],
      },
    });
    expect(submitted.status).toBe(201);
    const responseId: string = submitted.body.response_id;
    // Shown as Typeform shows a response's file: at the response files endpoint.
    const shown = `${base('eu')}/forms/${formId}/responses/${responseId}/fields/${fieldId}/files/${file.file_name}`;
    expect(submitted.body.answers[1]).toMatchObject({ type: 'file_url', file_url: shown });
    const listed = await callApi(
      `${base('eu')}/forms/${formId}/responses?included_response_ids=${responseId}`,
      {
        token: bob.token,
      },
    );
    expect(listed.body.items[0].answers[1].file_url).toBe(shown);

    const got = await download(bob, 'eu', responseId, file.file_name);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="${file.file_name}"`);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(pdf);
    // Another account, another name, or the other region's address: not found.
    expect((await download(alice, 'eu', responseId, file.file_name)).status).toBe(404);
    // Another name: its first character changed (the random name may start with X already).
    const otherName = `${file.file_name.startsWith('X') ? 'Y' : 'X'}${file.file_name.slice(1)}`;
    expect((await download(bob, 'eu', responseId, otherName)).status).toBe(404);
    expect((await download(bob, 'us', responseId, file.file_name)).status).toBe(404);
  });

  it("refuses a file_url that is not an upload of the form's question, or that another response holds", async () => {
    const submit = (fileUrl: string, ref = 'cv') =>
      callApi(`${base('eu')}/forms/${formId}/submissions`, {
        method: 'POST',
        body: {
          answers: [
            { field: { ref: 'name' }, type: 'text', text: 'Eve' },
            { field: { ref }, type: 'file_url', file_url: fileUrl },
          ],
        },
      });
    const uploaded = (await (await uploadTo('eu', 'cv', 'cv.pdf', pdf)).json()) as { file_url: string };
    const never = uploaded.file_url.replace(/\/[A-Za-z0-9]{16}-/, '/AAAAAAAAAAAAAAAA-');
    for (const forged of [
      'https://files.example.com/cv.pdf', // somewhere else
      never, // the form's address, no such upload
      uploaded.file_url.replace(base('eu'), base('us')), // the other region's address
    ]) {
      const refused = await submit(forged);
      expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_ERROR']);
      expect(refused.body.details).toEqual([
        expect.objectContaining({ code: 'FILE_NOT_UPLOADED', field: 'cv', in: 'body' }),
      ]);
    }
    expect((await submit(uploaded.file_url)).status).toBe(201);
    // Held by that response now: another submission cannot name it.
    const taken = await submit(uploaded.file_url);
    expect([taken.status, taken.body.details?.[0]?.code]).toEqual([400, 'FILE_NOT_UPLOADED']);
  });

  it('takes a multi_format (video and audio) question answered with a recording or with text', async () => {
    const created = await callApi(`${base('us')}/forms`, {
      token: bob.token,
      method: 'POST',
      body: {
        title: 'Say hello',
        fields: [{ ref: 'hello', title: 'Say hello on video', type: 'multi_format' }],
      },
    });
    expect(created.status).toBe(201);
    const videoForm: string = created.body.id;
    const videoField: string = created.body.fields[0].id;
    expect(created.body.fields[0]).toMatchObject({ ref: 'hello', type: 'multi_format' });
    const clip = Buffer.from('\x1aE\xdf\xa3 a tiny webm recording');
    const uploaded = await uploadTo('eu', 'hello', 'hello.webm', clip, videoForm);
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { file_url: string; file_name: string };
    const submit = (value: unknown) =>
      callApi(`${base('eu')}/forms/${videoForm}/submissions`, {
        method: 'POST',
        body: { answers: [{ field: { ref: 'hello' }, type: 'multi_format', multi_format: value }] },
      });

    // Only an upload to that question: anything else is refused like a file_upload's.
    const forged = await submit({ format: 'video', file_url: 'https://files.example.com/hello.webm' });
    expect([forged.status, forged.body.details?.[0]?.code]).toEqual([400, 'FILE_NOT_UPLOADED']);
    const mixed = await submit({ format: 'video', file_url: file.file_url, text: 'hi' });
    expect([mixed.status, mixed.body.details?.[0]?.field]).toEqual([400, 'answers[0].multi_format']);

    const submitted = await submit({ format: 'video', file_url: file.file_url });
    expect(submitted.status).toBe(201);
    const responseId: string = submitted.body.response_id;
    const shown = `${base('eu')}/forms/${videoForm}/responses/${responseId}/fields/${videoField}/files/${file.file_name}`;
    const answer = {
      field: { id: videoField, ref: 'hello', type: 'multi_format' },
      type: 'multi_format',
      multi_format: { format: 'video', file_url: shown },
    };
    expect(submitted.body.answers).toEqual([answer]);
    const listed = await callApi(
      `${base('eu')}/forms/${videoForm}/responses?included_response_ids=${responseId}`,
      { token: bob.token },
    );
    expect(listed.body.items[0].answers).toEqual([answer]);
    const got = await fetch(shown, { headers: { authorization: `bearer ${bob.token}` } });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(clip);

    const typed = await submit({ format: 'text', text: 'Hello from a keyboard' });
    expect(typed.status).toBe(201);
    expect(typed.body.answers[0].multi_format).toEqual({ format: 'text', text: 'Hello from a keyboard' });
  });

  it('prunes uploads no response holds once they are old, bytes and record, and keeps the others', async () => {
    const upload = async (name: string) =>
      (await (await uploadTo('eu', 'cv', name, pdf)).json()) as { file_url: string; file_name: string };
    const orphan = await upload('orphan.pdf');
    const kept = await upload('kept.pdf');
    const fresh = await upload('fresh.pdf');
    const submitted = await callApi(`${base('eu')}/forms/${formId}/submissions`, {
      method: 'POST',
      body: {
        answers: [
          { field: { ref: 'name' }, type: 'text', text: 'Kept' },
          { field: { ref: 'cv' }, type: 'file_url', file_url: kept.file_url },
        ],
      },
    });
    expect(submitted.status).toBe(201);
    // Two days old: past FILE_UPLOAD_RETENTION_MS (1 day by default).
    await responsesDb.upload.updateMany({
      where: { fileName: { in: [orphan.file_name, kept.file_name] } },
      data: { createdAt: new Date(Date.now() - 2 * 86_400_000) },
    });
    const remaining = await eventually(
      () => responsesDb.upload.findMany({ where: { formId }, select: { fileName: true } }),
      (rows) => !rows.some((row) => row.fileName === orphan.file_name),
    );
    const names = remaining.map((row) => row.fileName);
    expect(names).not.toContain(orphan.file_name);
    expect(names).toEqual(expect.arrayContaining([kept.file_name, fresh.file_name]));
    const stored = await storedFiles('eu');
    expect(stored).not.toContain(orphan.file_name);
    expect(stored).toEqual(expect.arrayContaining([kept.file_name, fresh.file_name]));
    // The pruned upload can no longer answer a submission.
    const late = await callApi(`${base('eu')}/forms/${formId}/submissions`, {
      method: 'POST',
      body: {
        answers: [
          { field: { ref: 'name' }, type: 'text', text: 'Late' },
          { field: { ref: 'cv' }, type: 'file_url', file_url: orphan.file_url },
        ],
      },
    });
    expect(late.body.details?.[0]?.code).toBe('FILE_NOT_UPLOADED');
  });

  it('refuses uploads at the wrong region, to other questions, too large or empty', async () => {
    const cases: Array<[Promise<Response>, number, string]> = [
      [uploadTo('us', 'cv', 'a.pdf', pdf), 421, 'WRONG_REGION'],
      [uploadTo('eu', 'name', 'a.pdf', pdf), 404, 'NOT_FOUND'],
      [uploadTo('eu', 'cv', 'a.pdf', pdf, 'NoSuchForm'), 404, 'FORM_NOT_FOUND'],
      [uploadTo('eu', 'cv', 'big.bin', Buffer.alloc(65 * 1024, 1)), 413, 'PAYLOAD_TOO_LARGE'],
      [uploadTo('eu', 'cv', 'empty.pdf', Buffer.alloc(0)), 400, 'VALIDATION_ERROR'],
    ];
    const before = await storedFiles('eu');
    for (const [answer, status, code] of cases) {
      const response = await answer;
      const body = (await response.json()) as { code: string };
      expect([response.status, body.code]).toEqual([status, code]);
    }
    expect(await storedFiles('eu')).toEqual(before);
  });

  it('is answered on the page with the keyboard, and the file arrives with the response', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    expect((await page.goto(`${base('us')}/to/${formId}`))?.status()).toBe(200);
    await page.getByRole('textbox').fill('Grace');
    await page.keyboard.press('Enter');
    // The file input is named by the question and reached with Tab.
    const input = page.locator(`#q-${fieldId}-input`);
    await input.waitFor();
    expect(await input.getAttribute('type')).toBe('file');
    const focused = () => page.evaluate<string>("document.activeElement?.id ?? ''");
    for (let presses = 0; presses < 10 && (await focused()) !== `q-${fieldId}-input`; presses++) {
      await page.keyboard.press('Tab');
    }
    expect(await focused()).toBe(`q-${fieldId}-input`);
    expect(await input.getAttribute('aria-labelledby')).toBeTruthy();
    await input.setInputFiles({ name: 'résumé.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByRole('status').filter({ hasText: 'Uploaded: résumé.pdf' }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('form.block, .ending').first().waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.ending').waitFor();
    await context.close();

    const listed = await callApi(`${base('eu')}/forms/${formId}/responses`, { token: bob.token });
    const mine = (
      listed.body.items as Array<{ response_id: string; answers: Array<{ type: string; file_url?: string }> }>
    ).find((item) =>
      item.answers.some((answer) => answer.type === 'text' && JSON.stringify(answer).includes('Grace')),
    );
    const fileUrl = mine?.answers.find((answer) => answer.type === 'file_url')?.file_url ?? '';
    expect(
      fileUrl.startsWith(
        `${base('eu')}/forms/${formId}/responses/${mine?.response_id}/fields/${fieldId}/files/`,
      ),
    ).toBe(true);
    const fileName = fileUrl.slice(fileUrl.lastIndexOf('/') + 1);
    expect(fileName).toMatch(/-resume.pdf$/);
    const got = await download(bob, 'eu', mine!.response_id, fileName);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(pdf);
  });

  it('records a multi_format answer on the page (a fake microphone here), uploads it, and the owner downloads it', async () => {
    const created = await callApi(`${base('us')}/forms`, {
      token: bob.token,
      method: 'POST',
      body: {
        title: 'Say hello',
        fields: [
          {
            ref: 'hello',
            title: 'Say hello on video',
            type: 'multi_format',
            validations: { required: true },
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    const videoForm: string = created.body.id;
    const videoField: string = created.body.fields[0].id;
    const context = await browser.newContext({ fakeMedia: true });
    const page = await context.newPage();
    await page.goto(`${base('eu')}/to/${videoForm}`);
    // Typing first, then recording: the recording, the last, is the answer.
    await page.getByRole('textbox').fill('Hello in words');
    // Audio: a second of video is larger than this spec's FILE_MAX_BYTES (64 KB).
    const record = page.getByRole('button', { name: 'Record audio' });
    const stop = page.getByRole('button', { name: 'Stop recording' });
    expect(await stop.isVisible()).toBe(false);
    await record.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Recording…' }).waitFor();
    expect([await record.isVisible(), await stop.isVisible()]).toEqual([false, true]);
    expect(await page.evaluate<string>("document.activeElement?.textContent ?? ''")).toBe('Stop recording');
    await page.waitForTimeout(1200);
    await stop.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: /^Uploaded: audio-recording\.(webm|mp4|ogg)$/ })
      .waitFor();
    expect(await page.getByRole('textbox').inputValue()).toBe('');
    await page.screenshot({ path: testArtifactPath(testInfra().dataDir, 'respondent-page-recording.png') });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.ending').waitFor();
    await context.close();

    const listed = await callApi(`${base('eu')}/forms/${videoForm}/responses`, { token: bob.token });
    expect(listed.body.items).toHaveLength(1);
    const [answer] = listed.body.items[0].answers as Array<{
      multi_format: { format: string; file_url: string };
    }>;
    expect(answer.multi_format.format).toBe('audio');
    const prefix = `${base('eu')}/forms/${videoForm}/responses/${listed.body.items[0].response_id}/fields/${videoField}/files/`;
    expect(answer.multi_format.file_url.startsWith(prefix)).toBe(true);
    const got = await fetch(answer.multi_format.file_url, {
      headers: { authorization: `bearer ${bob.token}` },
    });
    expect(got.status).toBe(200);
    const bytes = Buffer.from(await got.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1000);
    // A WebM (Matroska) file starts with its EBML header.
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
  });
});
