import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import {
  accessibilityFindings as audit,
  fetchReadingEarlyAnswer,
  testArtifactPath,
  testInfra,
  useTestRegions,
} from '@formline/testing';
import { signInToConsole } from './console.fixture';
import {
  exportAddresses,
  savedFile,
  shapeExports,
  tarEntries,
  withoutSaveDialog,
  withSaveDialogToPrivateFiles,
  withShapedExportStreams,
} from './console-export.fixture';

// The Results screen's export, driven in headless Chromium as the owner
// would: 22 of 33 responses (one with a note of two quoted lines, one with a
// file; another file belongs to a response left out) are filtered by search
// text; the export holds exactly those, as CSV and as JSON lines, byte for
// byte what the API exports for the same filters; it shows "N responses so
// far" and a bar to the filtered count as it streams; a connection cut inside
// a row (the CSV one inside a quoted line break) resumes after the last whole
// row, with `after`, and says so; Cancel (by keyboard) stops it and saves
// nothing; "Download their files" gives the tar archive of the filtered
// responses' files only; where the browser lets the page write a file, the
// export goes to the file chosen. The stream's pace and its one break are
// made by the page's fetch (console-export.fixture.ts). axe-core finds
// nothing; one column on a phone.
describe("the console's export of results in a browser", () => {
  const fixture = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses', 'media'],
    browser: true,
    extraEnv: ({ scratchDir }) => ({ FILE_STORAGE_DIR: scratchDir }),
    accounts: { ada: { region: 'us', password: 'ada-export-password' } },
  });
  const { regions, browser, accounts, api } = fixture;
  const { ada } = accounts;
  const base = () => regions.baseUrl('us');
  const artifact = (name: string) => testArtifactPath(testInfra().dataDir, name);
  const cv = Buffer.from('%PDF-1.4\n% a CV to export\n');
  const twoLines = 'line one\nline two, "quoted"';
  let formId: string;
  let cvFieldId: string;
  const kept: string[] = [];
  let withFile: string;

  const submit = async (answers: unknown[]) => {
    const response = await api(ada, 'POST', `/forms/${formId}/submissions`, { answers });
    expect(response.status).toBe(201);
    return response.body.token as string;
  };
  const text = (ref: string, value: string) => ({ field: { ref }, type: 'text', text: value });

  beforeAll(async () => {
    const created = await api(ada, 'POST', '/forms', {
      title: 'Export drill',
      fields: [
        { ref: 'name', title: 'Name?', type: 'short_text' },
        { ref: 'note', title: 'Note?', type: 'long_text' },
        { ref: 'cv', title: 'CV?', type: 'file_upload' },
      ],
    });
    expect(created.status).toBe(201);
    formId = created.body.id;
    cvFieldId = created.body.fields[2].id;
    const upload = async (name: string, body: Buffer) => {
      const uploaded = await fetchReadingEarlyAnswer(
        `${base()}/forms/${formId}/files/${cvFieldId}?filename=${name}`,
        { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body },
      );
      expect(uploaded.status).toBe(201);
      return ((await uploaded.json()) as { file_url: string }).file_url;
    };
    const fileUrl = await upload('cv.pdf', cv);
    // A file of a response the search leaves out: not in the archive.
    const otherUrl = await upload('other.pdf', Buffer.from('%PDF-1.4\n% not exported\n'));
    // Kept: 20 plain, one with two quoted lines; skipped: 10 that the search leaves out.
    const plain = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit([text('name', `keeper ${i}`), text('note', `n${i}`)])),
    );
    kept.push(...plain);
    // A second later (times are kept to the second), so that it is not the first row of the export.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    kept.push(await submit([text('name', 'keeper quoted'), text('note', twoLines)]));
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => submit([text('name', `other ${i}`), text('note', 'x')])),
    );
    await submit([
      text('name', 'other with a file'),
      { field: { ref: 'cv' }, type: 'file_url', file_url: otherUrl },
    ]);
    // The file answer: a response of its own among the kept.
    withFile = await submit([
      text('name', 'keeper with a file'),
      { field: { ref: 'cv' }, type: 'file_url', file_url: fileUrl },
    ]);
    kept.push(withFile);
  });

  const status = (page: Page, wanted: string | RegExp) =>
    page.getByRole('status').filter({ hasText: wanted }).first();
  const downloaded = async (page: Page, click: () => Promise<void>) => {
    const [download] = await Promise.all([page.waitForEvent('download'), click()]);
    return { name: download.suggestedFilename(), body: readFileSync(await download.path()) };
  };
  // What the API exports for the screen's filter (search "keeper", completed), as text.
  const apiExport = async (format: 'csv' | 'jsonl') => {
    const answer = await api(
      ada,
      'GET',
      `/forms/${formId}/responses/export?format=${format}&response_type=completed&query=keeper`,
    );
    expect(answer.status).toBe(200);
    return answer.text;
  };
  const activeText = (page: Page) => page.evaluate<string>('document.activeElement?.textContent ?? ""');

  const openFiltered = async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.goto(`${base()}/console`);
    await signInToConsole(page, ada);
    await page.goto(`${base()}/console#/forms/${formId}/results`);
    await page.getByRole('heading', { name: 'Results of “Export drill”', level: 1 }).waitFor();
    await page.getByLabel('Search the answers').fill('keeper');
    await page.keyboard.press('Enter');
    await status(page, /\(22 matching\)/).waitFor();
    return page;
  };

  it('exports exactly the filtered as CSV and JSON lines, with progress, resumes a cut stream, cancels, and downloads the files', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await withoutSaveDialog(context);
    await withShapedExportStreams(context);
    const page = await openFiltered(context);
    const exportButton = page.getByRole('button', { name: 'Export these results' });
    await expect(page.getByLabel('CSV').isChecked()).resolves.toBe(true);
    const found = await audit(page, 'export controls');

    // CSV, cut once inside the quoted line break: resumed after the last whole row.
    const csv = await apiExport('csv');
    const cutAt = 3 + Buffer.byteLength(csv.slice(0, csv.indexOf('line one') + 'line one'.length));
    await shapeExports(page, { piece: 200, delayMs: 150, breakAt: cutAt });
    const csvDownload = await downloaded(page, async () => {
      await exportButton.click();
      // As it streams: the count so far, and a bar to the 22 the filters select.
      await status(page, /responses? so far of 22\./).waitFor();
      await expect(
        page.getByRole('progressbar', { name: 'Responses exported' }).getAttribute('max'),
      ).resolves.toBe('22');
      found.push(...(await audit(page, 'export under way')));
      await page.screenshot({ path: artifact('console-export-progress.png') });
    });
    expect(csvDownload.name).toBe(`${formId}-responses.csv`);
    // Byte for byte the API's export: the header once, every row once, the cut row whole.
    expect(csvDownload.body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csvDownload.body.toString('utf8').replace(/^\uFEFF/, '')).toBe(csv);
    expect(csv).toContain('"line one\nline two, ""quoted"""');
    await status(
      page,
      `The export of 22 responses is downloaded as ${formId}-responses.csv. The connection broke once; the export went on after the last whole response, without starting over.`,
    ).waitFor();
    const csvAsked = (await exportAddresses(page)).map((address) => new URL(address, base()).searchParams);
    expect(csvAsked.map((params) => params.get('query'))).toEqual(['keeper', 'keeper']);
    expect(csvAsked[0].get('after')).toBeNull();
    // The resumed stream starts after the row before the cut one.
    const csvTokens = csv
      .split('\r\n')
      .slice(1)
      .map((row) => row.split(',')[0])
      .filter((cell) => /^[0-9a-f]{32}$/.test(cell));
    expect(csvTokens.sort()).toEqual([...kept].sort());
    const rowsBeforeCut = csv.slice(0, csv.indexOf('line one')).split('\r\n');
    expect(csvAsked[1].get('after')).toBe(rowsBeforeCut.at(-2)?.split(',')[0]);

    // JSON lines, cut in the middle: resumed too.
    await page.getByLabel('JSON lines').check();
    const jsonl = await apiExport('jsonl');
    await shapeExports(page, { piece: 512, delayMs: 20, breakAt: Math.floor(Buffer.byteLength(jsonl) / 2) });
    const jsonDownload = await downloaded(page, () => exportButton.click());
    expect(jsonDownload.name).toBe(`${formId}-responses.jsonl`);
    expect(jsonDownload.body.toString('utf8')).toBe(jsonl);
    const lines = jsonl.trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { token: string }).token).sort()).toEqual(
      [...kept].sort(),
    );
    await status(
      page,
      /^The export of 22 responses is downloaded as .*\.jsonl\. The connection broke once/,
    ).waitFor();
    expect(new URL((await exportAddresses(page)).at(-1) ?? '', base()).searchParams.get('after')).toMatch(
      /^[0-9a-f]{32}$/,
    );

    // Cancelled by keyboard: focus is on Cancel while it runs, nothing is downloaded, focus comes back.
    await shapeExports(page, { piece: 64, delayMs: 250 });
    let downloads = 0;
    page.on('download', () => (downloads += 1));
    await exportButton.click();
    await status(page, /responses? so far/).waitFor();
    await expect(activeText(page)).resolves.toBe('Cancel the export');
    found.push(...(await audit(page, 'export to cancel')));
    await page.keyboard.press('Enter');
    await status(page, /^The export is cancelled after \d+ responses?; nothing is saved\.$/).waitFor();
    await expect(activeText(page)).resolves.toBe('Export these results');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(downloads).toBe(0);

    // The filtered responses' files, as the API's tar archive.
    await shapeExports(page, undefined);
    const files = await downloaded(page, () =>
      page.getByRole('button', { name: 'Download their files' }).click(),
    );
    expect(files.name).toBe(`${formId}-files.tar`);
    const entries = tarEntries(files.body);
    expect(entries.map((entry) => entry.name)).toEqual([
      expect.stringMatching(new RegExp(`^${withFile}/${cvFieldId}/[A-Za-z0-9]+-cv\\.pdf$`)),
    ]);
    expect(entries[0].body).toEqual(cv);
    await status(page, /^The files archive \(\d+ KB\) is downloaded as .*-files\.tar\.$/).waitFor();
    found.push(...(await audit(page, 'export done')));
    expect(found).toEqual([]);
    await context.close();
  });

  it('writes the export to the file chosen as it streams, and keeps to one column on a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
    await withSaveDialogToPrivateFiles(context);
    await withShapedExportStreams(context);
    const page = await openFiltered(context);
    await page.getByLabel('JSON lines').check();
    await shapeExports(page, { piece: 300, delayMs: 20 });
    await page.getByRole('button', { name: 'Export these results' }).click();
    await status(page, `The export of 22 responses is saved to ${formId}-responses.jsonl.`).waitFor();
    const saved = await savedFile(page);
    expect(saved.name).toBe(`${formId}-responses.jsonl`);
    expect(saved.text).toBe(await apiExport('jsonl'));
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    const found = await audit(page, 'phone export');
    await page.getByRole('heading', { name: 'Export', level: 2 }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('console-export-phone.png') });
    expect(found).toEqual([]);
    await context.close();
  });
});
