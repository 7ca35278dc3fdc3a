import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  callApi,
  createTestAccount,
  type HeadlessBrowser,
  launchHeadlessBrowser,
  startTestRegions,
  testGlobalDatabase,
  type TestAccount,
  type TestRegions,
} from '@formline/testing';

// `file_upload` questions: a respondent uploads to the region of the form's
// account (EU files land in the EU store only), answers with the `file_url`,
// and the form's owner downloads it through Typeform's response files
// endpoint; the page does the same in a browser, with the keyboard.
describe('file uploads', () => {
  const db = testGlobalDatabase();
  let regions: TestRegions;
  let browser: HeadlessBrowser;
  let alice: TestAccount; // us
  let bob: TestAccount; // eu
  let storageDir: string;
  let formId: string; // bob's
  let fieldId: string; // its file_upload question
  const pdf = Buffer.from('%PDF-1.4\n% a tiny test file\n');

  const base = (region: 'us' | 'eu') => regions.baseUrl(region);
  const uploadTo = (region: 'us' | 'eu', field: string, name: string, body: Buffer, id = formId) =>
    fetch(`${base(region)}/forms/${id}/files/${field}?filename=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body,
    });
  const download = (account: TestAccount, region: 'us' | 'eu', responseId: string, fileName: string) =>
    fetch(`${base(region)}/forms/${formId}/responses/${responseId}/fields/${fieldId}/files/${fileName}`, {
      headers: { authorization: `bearer ${account.token}` },
    });
  const storedFiles = async (region: string) =>
    (await readdir(join(storageDir, region, 'forms', formId, fieldId)).catch(() => [])).sort();

  beforeAll(async () => {
    browser = launchHeadlessBrowser();
    storageDir = await mkdtemp(join(tmpdir(), 'formline-files-'));
    alice = await createTestAccount(db, 'us');
    bob = await createTestAccount(db, 'eu');
    regions = await startTestRegions({
      name: 'file-uploads',
      apps: ['gateway', 'forms', 'responses'],
      extraEnv: { FILE_STORAGE_DIR: storageDir, FILE_MAX_BYTES: String(64 * 1024) },
    });
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

  afterAll(async () => {
    await browser?.close();
    await regions?.stop();
    await db.$disconnect();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
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

    const got = await download(bob, 'eu', responseId, file.file_name);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="${file.file_name}"`);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(pdf);
    // Another account, another name, or the other region's address: not found.
    expect((await download(alice, 'eu', responseId, file.file_name)).status).toBe(404);
    expect((await download(bob, 'eu', responseId, `X${file.file_name.slice(1)}`)).status).toBe(404);
    expect((await download(bob, 'us', responseId, file.file_name)).status).toBe(404);
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
    expect(fileUrl.startsWith(`${base('eu')}/forms/${formId}/files/${fieldId}/`)).toBe(true);
    const fileName = fileUrl.slice(fileUrl.lastIndexOf('/') + 1);
    expect(fileName).toMatch(/-resume.pdf$/);
    const got = await download(bob, 'eu', mine!.response_id, fileName);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(pdf);
  });
});
