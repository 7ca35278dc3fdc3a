import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import {
  accessibilityFindings as audit,
  callApi,
  testArtifactPath,
  testInfra,
  useTestRegions,
} from '@formline/testing';
import { signInToConsole } from './console.fixture';

// The console's Insights screen, driven in headless Chromium: three
// completed responses and a partial save submitted through the public API
// to a form with a multiple-choice and a rating question; the screen, opened
// from the form's card, shows the completion figures, the views and
// drop-offs per question, and the count of each choice and each step; a form
// that is not there is refused in words. axe-core finds nothing; the
// screenshot lands in .data/test/artifacts/console-insights.png (the one
// docs/console-insights.png shows).
describe("the console's Insights screen in a browser", () => {
  const fixture = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses'],
    browser: true,
    accounts: { ada: { region: 'us', password: 'ada-insights-password' } },
  });
  const { regions, browser, accounts, api } = fixture;
  const { ada } = accounts;
  const base = () => regions.baseUrl('us');
  let formId: string;

  const answer = (ref: string, type: string, value: unknown) => ({ field: { ref }, type, [type]: value });
  const submit = async (name: string, meal: string, stars: number) => {
    const response = await callApi(`${base()}/forms/${formId}/submissions`, {
      method: 'POST',
      body: {
        answers: [
          answer('name', 'text', name),
          answer('meal', 'choice', { label: meal }),
          answer('stars', 'number', stars),
        ],
      },
    });
    expect(response.status).toBe(201);
  };

  beforeAll(async () => {
    const created = await api(ada, 'POST', '/forms', {
      title: 'Dinner feedback',
      fields: [
        { ref: 'name', title: 'Your name?', type: 'short_text' },
        {
          ref: 'meal',
          title: 'Which meal?',
          type: 'multiple_choice',
          properties: { choices: [{ label: 'Fish' }, { label: 'Pasta' }, { label: 'Salad' }] },
        },
        { ref: 'stars', title: 'How was it?', type: 'rating', properties: { steps: 3 } },
      ],
    });
    expect(created.status).toBe(201);
    formId = created.body.id;
    await submit('Ada', 'Fish', 3);
    await submit('Grace', 'Fish', 2);
    await submit('Alan', 'Pasta', 3);
    // Answered in part, never submitted: it leaves after the first question.
    const partial = await callApi(`${base()}/forms/${formId}/submissions/partial`, {
      method: 'POST',
      body: { progress_key: randomBytes(16).toString('hex'), answers: [answer('name', 'text', 'Katherine')] },
    });
    expect(partial.status).toBe(200);
  });

  const cells = (page: Page, table: string, row: string) =>
    page
      .locator(`${table} tbody tr`)
      .filter({ has: page.getByRole('rowheader', { name: row, exact: true }) });
  const rowText = async (page: Page, table: string, row: string) =>
    (await cells(page, table, row).locator('td').allTextContents()).map((text) => text.trim());
  const figure = (page: Page, term: string) =>
    page
      .locator('dl.figures div')
      .filter({ has: page.locator('dt', { hasText: term }) })
      .locator('dd');

  it('shows the completion figures, the drop-off per question and the count of each answer', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base()}/console`);
    await signInToConsole(page, ada);
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Dinner feedback' }) });
    await card.getByRole('link', { name: 'Insights of Dinner feedback' }).click();
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/forms/${formId}/insights`);
    await page.getByRole('heading', { name: 'Which meal?', level: 3 }).waitFor();

    await expect(figure(page, 'Responses').textContent()).resolves.toBe('3');
    await expect(figure(page, 'Visits').textContent()).resolves.toBe('4');
    await expect(figure(page, 'Completion rate').textContent()).resolves.toBe('75%');
    await expect(figure(page, 'Average time').textContent()).resolves.toMatch(/^\d+ s$/);

    const dropoff = 'section[aria-labelledby="insights-dropoff"]';
    expect(await rowText(page, dropoff, 'Your name?')).toEqual(['4', '1']);
    expect(await rowText(page, dropoff, 'Which meal?')).toEqual(['3', '0']);
    expect(await rowText(page, dropoff, 'How was it?')).toEqual(['3', '0']);

    const meal = 'section[aria-labelledby^="answers-"]:has(h3:text-is("Which meal?"))';
    expect(await rowText(page, meal, 'Fish')).toEqual(['2', '67%']);
    expect(await rowText(page, meal, 'Pasta')).toEqual(['1', '33%']);
    expect(await rowText(page, meal, 'Salad')).toEqual(['0', '0%']);
    // Each row's bar, drawn in CSS to its share.
    const bars = page.locator(meal).locator('.answer-bar span');
    expect(await bars.evaluateAll((spans) => spans.map((span) => span.getAttribute('style')))).toEqual([
      'width: 67%;',
      'width: 33%;',
      'width: 0%;',
    ]);
    const stars = 'section[aria-labelledby^="answers-"]:has(h3:text-is("How was it?"))';
    expect(await rowText(page, stars, '1')).toEqual(['0', '0%']);
    expect(await rowText(page, stars, '2')).toEqual(['1', '33%']);
    expect(await rowText(page, stars, '3')).toEqual(['2', '67%']);
    await expect(page.locator(stars).locator('.meta').textContent()).resolves.toBe('3 answers, average 2.7');

    const found = await audit(page, 'insights');
    await page.screenshot({
      path: testArtifactPath(testInfra().dataDir, 'console-insights.png'),
      fullPage: true,
    });

    // A form that is not there (or not the account's): the API's refusal, in words.
    await page.goto(`${base()}/console#/forms/not-a-form/insights`);
    await page.getByRole('alert').first().waitFor();
    found.push(...(await audit(page, 'refused')));
    expect(found).toEqual([]);
    await context.close();
  });
});
