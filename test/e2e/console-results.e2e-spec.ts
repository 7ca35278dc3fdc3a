import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import {
  accessibilityFindings as audit,
  callApi,
  fetchReadingEarlyAnswer,
  testArtifactPath,
  testInfra,
  useTestRegions,
} from '@formline/testing';
import { signInToConsole } from './console.fixture';
import { withoutSaveDialog } from './console-export.fixture';

// The console's Results screen, driven in headless Chromium as the owner
// would: responses submitted through the public API (completed ones, one
// with an uploaded file, two moved back to January in the database, and a
// partial save) show in a table with a column a question and each answer in
// words; they are filtered by search text (with the keyboard), by days, by
// completed or partial and by a question answered, the filters kept in the
// address across a reload; the CSV export holds exactly the filtered
// responses; one response opens whole (hidden fields, metadata, its file
// downloaded through the API's file route); one is deleted once confirmed.
// On a phone, 51 responses page by the API's cursors (50, then 1), kept on a
// reload; the API's refusals show in words. axe-core finds nothing on any of
// these states. Screenshots land in .data/test/artifacts/ (console-results.png
// is the one docs/console-results.png shows).
describe("the console's Results screen in a browser", () => {
  const fixture = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses', 'media'],
    browser: true,
    extraEnv: ({ scratchDir }) => ({ FILE_STORAGE_DIR: scratchDir }),
    accounts: { ada: { region: 'us', password: 'ada-results-password' } },
  });
  const { regions, browser, accounts, api, createForm } = fixture;
  const { ada } = accounts;
  const base = () => regions.baseUrl('us');
  const artifact = (name: string) => testArtifactPath(testInfra().dataDir, name);
  const cv = Buffer.from('%PDF-1.4\n% a tiny CV\n');
  let formId: string;
  let cvFieldId: string;
  const tokens: Record<string, string> = {};
  const short = (name: string) => tokens[name].slice(0, 8);

  const submit = async (id: string, answers: unknown[], hidden?: Record<string, string>) => {
    const response = await api(ada, 'POST', `/forms/${id}/submissions`, { answers, hidden });
    expect(response.status).toBe(201);
    return response.body.token as string;
  };
  const text = (ref: string, value: string) => ({ field: { ref }, type: 'text', text: value });
  const guest = (name: string, email: string, guests: number, meal: string, vegan: boolean, day: string) => [
    text('name', name),
    { field: { ref: 'email' }, type: 'email', email },
    { field: { ref: 'guests' }, type: 'number', number: guests },
    { field: { ref: 'meal' }, type: 'choice', choice: { label: meal } },
    { field: { ref: 'vegan' }, type: 'boolean', boolean: vegan },
    { field: { ref: 'day' }, type: 'date', date: day },
  ];

  beforeAll(async () => {
    const created = await api(ada, 'POST', '/forms', {
      title: 'Event sign-up',
      hidden: ['source'],
      fields: [
        { ref: 'name', title: 'Your name?', type: 'short_text' },
        { ref: 'email', title: 'Your email?', type: 'email' },
        { ref: 'guests', title: 'Guests?', type: 'number' },
        {
          ref: 'meal',
          title: 'Meal?',
          type: 'multiple_choice',
          properties: { choices: [{ label: 'Fish' }, { label: 'Pasta' }] },
        },
        { ref: 'vegan', title: 'Vegan?', type: 'yes_no' },
        { ref: 'day', title: 'Which day?', type: 'date' },
        { ref: 'cv', title: 'Your CV', type: 'file_upload' },
      ],
    });
    expect(created.status).toBe(201);
    formId = created.body.id;
    cvFieldId = created.body.fields[6].id;

    const uploaded = await fetchReadingEarlyAnswer(
      `${base()}/forms/${formId}/files/${cvFieldId}?filename=cv.pdf`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: cv,
      },
    );
    expect(uploaded.status).toBe(201);
    const { file_url: fileUrl } = (await uploaded.json()) as { file_url: string };
    // Moved to January in the database (a submission takes the server's time).
    tokens.alan = await submit(
      formId,
      guest('Alan Turing', 'alan@example.com', 1, 'Pasta', false, '2026-01-12'),
    );
    tokens.katherine = await submit(
      formId,
      guest('Katherine Johnson', 'kj@example.com', 3, 'Fish', false, '2026-01-13'),
    );
    for (const [name, at] of [
      ['alan', '2026-01-10T12:00:00Z'],
      ['katherine', '2026-01-11T12:00:00Z'],
    ]) {
      await fixture.responsesDb.us.response.updateMany({
        where: { formId, id: tokens[name] },
        data: { submittedAt: new Date(at) },
      });
    }
    tokens.grace = await submit(
      formId,
      guest('Grace Hopper', 'grace@example.com', 0, 'Pasta', false, '2026-03-06'),
    );
    tokens.ada = await submit(
      formId,
      [
        ...guest('Ada Lovelace', 'ada@example.com', 2, 'Fish', true, '2026-03-05'),
        { field: { ref: 'cv' }, type: 'file_url', file_url: fileUrl },
      ],
      { source: 'newsletter' },
    );
    // A partial save: answered in part, never submitted.
    const partial = await callApi(`${base()}/forms/${formId}/submissions/partial`, {
      method: 'POST',
      body: { progress_key: randomBytes(16).toString('hex'), answers: [text('name', 'Margaret Hamilton')] },
    });
    expect(partial.status).toBe(200);
    tokens.margaret = partial.body.token;
  });

  const signIn = async (page: Page) => {
    await page.goto(`${base()}/console`);
    await signInToConsole(page, ada);
  };
  const status = (page: Page, text: string | RegExp) =>
    page.getByRole('status').filter({ hasText: text }).first();
  const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });
  // The names in the table's rows, top to bottom.
  const shownNames = async (page: Page) => {
    const names = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Margaret Hamilton'];
    const rows = await page.locator('table.responses tbody tr').allTextContents();
    return rows.map((row) => names.find((name) => row.includes(name)) ?? row);
  };
  const downloaded = async (
    page: Page,
    click: () => Promise<void>,
  ): Promise<{ name: string; body: Buffer }> => {
    const [download] = await Promise.all([page.waitForEvent('download'), click()]);
    const path = await download.path();
    return { name: download.suggestedFilename(), body: readFileSync(path) };
  };
  // The export's rows (RFC 4180; no cell here holds a comma, quote or line break): token first.
  const csvTokens = (csv: string) =>
    csv
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .slice(1)
      .map((line) => line.split(',')[0]);
  // Polled with evaluate, which the page's policy allows (waitForFunction's own polling evaluates a string, which it refuses).
  const untilTrue = async (page: Page, expression: string, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await page.evaluate<boolean>(expression))) {
      if (Date.now() > deadline) throw new Error(`still false after ${timeoutMs} ms: ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const showFilters = async (page: Page) => {
    await page.getByRole('button', { name: 'Show', exact: true }).click();
  };

  it('shows the answers in columns, filters them (kept in the address), exports the filtered, opens one, deletes one', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await withoutSaveDialog(context);
    const page = await context.newPage();
    await signIn(page);
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Event sign-up' }) });
    await card.getByRole('link', { name: 'Results of Event sign-up' }).click();
    await page.getByRole('heading', { name: 'Results of “Event sign-up”', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/forms/${formId}/results`);
    // Completed ones only, as the API lists by default, newest first.
    await status(page, '4 responses on this page, newest first (4 in all).').waitFor();
    expect(await shownNames(page)).toEqual([
      'Ada Lovelace',
      'Grace Hopper',
      'Katherine Johnson',
      'Alan Turing',
    ]);
    const headers = await page.locator('table.responses thead th').allTextContents();
    expect(headers.slice(1)).toEqual([
      'Response',
      'Submitted',
      'State',
      'Your name?',
      'Your email?',
      'Guests?',
      'Meal?',
      'Vegan?',
      'Which day?',
      'Your CV',
    ]);
    // Each answer in words, in its question's column.
    const cells = await rowOf(page, 'Ada Lovelace').locator('td').allTextContents();
    expect(cells.slice(2)).toEqual([
      'Completed',
      'Ada Lovelace',
      'ada@example.com',
      '2',
      'Fish',
      'Yes',
      '5 Mar 2026',
      expect.stringMatching(/^[A-Za-z0-9]{16}-cv\.pdf$/),
    ]);
    expect((await rowOf(page, 'Grace Hopper').locator('td').allTextContents()).slice(4, 8)).toEqual([
      'grace@example.com',
      '0',
      'Pasta',
      'No',
    ]);
    const found = await audit(page, 'results');

    // Search text, with the keyboard: typed, then Enter.
    await page.getByLabel('Search the answers').focus();
    await page.keyboard.type('grace');
    await page.keyboard.press('Enter');
    await status(page, '1 response on this page, newest first (1 matching).').waitFor();
    expect(await shownNames(page)).toEqual(['Grace Hopper']);
    expect(new URL(page.url()).hash).toBe(`#/forms/${formId}/results?query=grace`);
    // A reload keeps the filter, in the field and in the table.
    await page.reload();
    await status(page, '1 response on this page, newest first (1 matching).').waitFor();
    await expect(page.getByLabel('Search the answers').inputValue()).resolves.toBe('grace');
    found.push(...(await audit(page, 'searched')));
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await status(page, '4 responses on this page, newest first (4 in all).').waitFor();

    // Days: January holds the two moved there; days out of order are refused in words.
    await page.getByLabel('First day').fill('2026-01-31');
    await page.getByLabel('Last day').fill('2026-01-01');
    await showFilters(page);
    await page.getByRole('alert').filter({ hasText: 'The last day comes before the first day.' }).waitFor();
    await page.getByLabel('First day').fill('2026-01-01');
    await page.getByLabel('Last day').fill('2026-01-31');
    await showFilters(page);
    await status(page, '2 responses on this page, newest first (2 matching).').waitFor();
    expect(await shownNames(page)).toEqual(['Katherine Johnson', 'Alan Turing']);
    expect(new URL(page.url()).hash).toBe(`#/forms/${formId}/results?since=2026-01-01&until=2026-01-31`);
    found.push(...(await audit(page, 'by days')));

    // The export holds exactly these two (oldest first, the export's order).
    const january = await downloaded(page, () =>
      page.getByRole('button', { name: 'Export these results' }).click(),
    );
    expect(january.name).toBe(`${formId}-responses.csv`);
    expect(csvTokens(january.body.toString('utf8')).sort()).toEqual([tokens.alan, tokens.katherine].sort());
    await status(page, `The export of 2 responses is downloaded as ${formId}-responses.csv.`).waitFor();

    // Partial: the save never submitted, alone; then every state.
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await status(page, '4 responses on this page, newest first (4 in all).').waitFor();
    await page.getByLabel('Responses', { exact: true }).selectOption('partial');
    await showFilters(page);
    await status(page, /^1 response on this page/).waitFor();
    expect(await shownNames(page)).toEqual(['Margaret Hamilton']);
    const partialCells = await rowOf(page, 'Margaret Hamilton').locator('td').allTextContents();
    expect(partialCells.slice(1, 4)).toEqual(['Not submitted', 'Partial', 'Margaret Hamilton']);
    found.push(...(await audit(page, 'partial')));
    const partials = await downloaded(page, () =>
      page.getByRole('button', { name: 'Export these results' }).click(),
    );
    expect(csvTokens(partials.body.toString('utf8'))).toEqual([tokens.margaret]);
    await page.getByLabel('Responses', { exact: true }).selectOption('all');
    await showFilters(page);
    await status(page, /^5 responses on this page/).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/forms/${formId}/results?state=all`);

    // A question answered: only Ada sent a CV; the export follows.
    await page.getByLabel('Answered the question').selectOption({ label: 'Your CV' });
    await showFilters(page);
    await status(page, /^1 response on this page/).waitFor();
    expect(await shownNames(page)).toEqual(['Ada Lovelace']);
    const withCv = await downloaded(page, () =>
      page.getByRole('button', { name: 'Export these results' }).click(),
    );
    expect(csvTokens(withCv.body.toString('utf8'))).toEqual([tokens.ada]);

    // One response whole: its answers, hidden field, metadata; its file through the API's file route.
    await page.getByRole('link', { name: `Open response ${short('ada')}` }).click();
    const opened = page.getByRole('region', { name: `Response ${short('ada')}` });
    await opened.waitFor();
    expect(new URL(page.url()).hash).toContain(`open=${tokens.ada}`);
    await opened.getByText('newsletter').waitFor();
    await opened.getByText('Completed').waitFor();
    await opened.getByText(tokens.ada).waitFor();
    const facts = await opened.locator('dt, dd').allTextContents();
    expect(facts.join('|')).toContain('Meal?|Fish|Vegan?|Yes|Which day?|5 Mar 2026');
    expect(facts.join('|')).toContain('source|newsletter');
    const file = await downloaded(page, () =>
      opened.getByRole('button', { name: /^Download .*-cv\.pdf$/ }).click(),
    );
    expect(file.body).toEqual(cv);
    found.push(...(await audit(page, 'one response')));
    await page.screenshot({ path: artifact('console-results-response.png'), fullPage: true });
    await opened.getByRole('link', { name: 'Close the response' }).click();
    await opened.waitFor({ state: 'detached' });

    // Deleted once confirmed; Escape first keeps it.
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await status(page, '4 responses on this page, newest first (4 in all).').waitFor();
    await page.getByLabel(`Select response ${short('grace')}`).check();
    await page.getByRole('button', { name: 'Delete the selected (1)' }).click();
    // Focus moves to the question once it has rendered (and Escape is listened for from then on).
    await untilTrue(page, "document.activeElement?.id === 'confirm-deletion-title'");
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Delete the selected response?' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete the selected (1)' }).click();
    await page.getByText('the files respondents uploaded with them, are deleted for good').waitFor();
    found.push(...(await audit(page, 'confirming a deletion')));
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await status(page, 'The response is deleted.').waitFor();
    // The page is read again (emptied meanwhile): the others come back, Grace does not.
    await rowOf(page, 'Alan Turing').waitFor();
    expect(await shownNames(page)).toEqual(['Ada Lovelace', 'Katherine Johnson', 'Alan Turing']);
    const left = await api(ada, 'GET', `/forms/${formId}/responses?included_response_ids=${tokens.grace}`);
    expect(left.body.items).toEqual([]);
    found.push(...(await audit(page, 'after a deletion')));
    await page.screenshot({ path: artifact('console-results.png'), fullPage: true });
    expect(found).toEqual([]);
    await context.close();
  });

  it('pages 51 responses by cursor on a phone, keeps the page on a reload, and says what the API refused', async () => {
    const pollId = await createForm(ada, {
      title: 'Quick poll',
      fields: [{ ref: 'n', title: 'How many?', type: 'number' }],
    });
    for (let batch = 0; batch < 51; batch += 17) {
      await Promise.all(
        Array.from({ length: 17 }, (_, i) =>
          submit(pollId, [{ field: { ref: 'n' }, type: 'number', number: batch + i }]),
        ),
      );
    }
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${base()}/console#/forms/${pollId}/results`);
    await page.getByRole('heading', { name: 'Results of “Quick poll”', level: 1 }).waitFor();
    await status(page, '50 responses on this page, newest first (51 in all).').waitFor();
    await expect(page.getByRole('button', { name: 'Newest' }).isDisabled()).resolves.toBe(true);
    // Nothing wider than the screen: the table scrolls inside its own region.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    const found = await audit(page, 'phone results');
    await page.screenshot({ path: artifact('console-results-phone.png'), fullPage: false });

    await page.getByRole('button', { name: 'Older' }).click();
    await status(page, '1 response on this page, newest first.').waitFor();
    expect(new URL(page.url()).hash).toMatch(/\/results\?before=[0-9a-f]{32}$/);
    await page.reload();
    await status(page, '1 response on this page, newest first.').waitFor();
    await expect(page.getByRole('button', { name: 'Older' }).isDisabled()).resolves.toBe(true);
    found.push(...(await audit(page, 'phone older page')));
    await page.getByRole('button', { name: 'Newer' }).click();
    await status(page, '50 responses on this page, newest first.').waitFor();
    await page.getByRole('button', { name: 'Newest' }).click();
    await status(page, '50 responses on this page, newest first (51 in all).').waitFor();

    // The API's refusal, in its words: a form that is not there.
    await page.goto(`${base()}/console#/forms/no-such-form/results`);
    await page
      .getByRole('alert')
      .filter({ hasText: /\(FORM_NOT_FOUND\)/ })
      .first()
      .waitFor();
    await page.getByRole('heading', { name: 'Results', exact: true, level: 1 }).waitFor();
    found.push(...(await audit(page, 'phone refused')));
    expect(found).toEqual([]);
    await context.close();
  });
});
