import { accessibilityFindings as audit, useTestRegions } from '@formline/testing';
import { focusMovedTo, openBuilder, saveStatus } from './console-builder.fixture';

// The builder's JSON view and its saves, in headless Chromium: a text that
// is not JSON is said with its line and column and never sent; the API's
// refusal of a definition (400) is listed with the line its field path names,
// and a button selects that line in the text. Two tabs on one form: the
// first saves, the second's save (If-Match on the version it loaded) gets
// the API's 412 and says someone saved since, never overwriting; loading the
// newer version lets it go on. axe-core finds nothing in any of these states.
describe("the console's form builder: the JSON view and a conflict between two tabs", () => {
  const { regions, browser, accounts, api } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses'],
    browser: true,
    accounts: { ada: { region: 'us', password: 'ada-builder-json-password' } },
  });
  const { ada } = accounts;
  const base = () => regions.baseUrl('us');
  const newForm = async (title: string) => {
    const created = await api(ada, 'POST', '/forms', {
      title,
      fields: [
        { ref: 'name', title: 'Your name?', type: 'short_text' },
        { ref: 'stars', title: 'How was it?', type: 'rating', properties: { steps: 5 } },
      ],
    });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };

  it("shows where the JSON is broken, and the API's refusal at the line of its field", async () => {
    const formId = await newForm('Dinner');
    const { context, page } = await openBuilder(browser, base(), ada, formId);
    const found: string[] = [];
    await page.getByRole('button', { name: 'JSON', exact: true }).click();
    const text = page.getByLabel('The form definition');
    const definition = JSON.parse(await text.inputValue());
    expect(definition.fields[1]).toMatchObject({ ref: 'stars', type: 'rating' });

    // Not JSON: said as it is typed, with the place; Save sends nothing.
    const broken = JSON.stringify(definition, null, 2).replace('"title": "Dinner",', '"title": "Dinner"');
    await text.fill(broken);
    const syntax = page.locator('#builder-json-syntax');
    await syntax.waitFor();
    expect(await syntax.textContent()).toMatch(
      /^Not valid JSON: Expected "," or "}" after a property at line \d+, column \d+\./,
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved: the text is not valid JSON' }).waitFor();
    found.push(...(await audit(page, 'JSON not valid')));

    // Valid JSON the API refuses: a rating of 40 steps (3 to 10).
    definition.fields[1].properties.steps = 40;
    const refused = JSON.stringify(definition, null, 2);
    await text.fill(refused);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'VALIDATION_ERROR' }).waitFor();
    const problem = page
      .locator('#builder-json-problems li')
      .filter({ hasText: 'fields[1].properties.steps' });
    const line = refused.split('\n').findIndex((row) => row.includes('"steps": 40')) + 1;
    expect(await problem.textContent()).toMatch(
      new RegExp(`^Line ${line}, fields\\[1\\]\\.properties\\.steps: `),
    );
    await problem.getByRole('button', { name: `Show line ${line}` }).click();
    await focusMovedTo(page, 'builder-json-text');
    const selected = await text.evaluate((element) => {
      const area = element as unknown as { value: string; selectionStart: number; selectionEnd: number };
      return area.value.slice(area.selectionStart, area.selectionEnd);
    });
    expect(selected.trim()).toBe('"steps": 40,');
    expect(await text.getAttribute('aria-invalid')).toBe('true');
    found.push(...(await audit(page, 'JSON refused')));
    expect((await api(ada, 'GET', `/forms/${formId}`)).body.fields[1].properties.steps).toBe(5);

    // Fixed, it saves, and the builder's inputs show what the JSON set.
    definition.fields[1].properties.steps = 7;
    await text.fill(JSON.stringify(definition, null, 2));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saveStatus(page, /^Saved\./).waitFor();
    await page.getByRole('button', { name: 'Questions and screens' }).click();
    expect(await page.locator('#q1-steps').inputValue()).toBe('7');
    expect(found).toEqual([]);
    await context.close();
  });

  it("refuses to save over another tab's save (412), and loads the newer version when asked", async () => {
    const formId = await newForm('Picnic');
    const a = await openBuilder(browser, base(), ada, formId);
    const b = await openBuilder(browser, base(), ada, formId);
    const found: string[] = [];

    await a.page.getByLabel('Title of the form').fill('Picnic in June');
    await a.page.getByRole('button', { name: 'Save', exact: true }).click();
    await saveStatus(a.page, /^Saved\./).waitFor();

    await b.page.locator('#q0-title').fill('Who are you?');
    await b.page.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = b.page
      .getByRole('alert')
      .filter({ hasText: 'Someone saved this form after you loaded it' });
    await conflict.waitFor();
    expect(await b.page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    found.push(...(await audit(b.page, 'conflict')));
    // Nothing of tab B's reached the form.
    const stored = (await api(ada, 'GET', `/forms/${formId}`)).body;
    expect([stored.title, stored.fields[0].title]).toEqual(['Picnic in June', 'Your name?']);

    await conflict.getByRole('button', { name: /^Load the newer version/ }).click();
    await saveStatus(b.page, /^The newer version is loaded/).waitFor();
    expect(await b.page.getByLabel('Title of the form').inputValue()).toBe('Picnic in June');
    await b.page.locator('#q0-title').fill('Who are you?');
    await b.page.getByRole('button', { name: 'Save', exact: true }).click();
    await saveStatus(b.page, /^Saved\./).waitFor();
    const after = (await api(ada, 'GET', `/forms/${formId}`)).body;
    expect([after.title, after.fields[0].title]).toEqual(['Picnic in June', 'Who are you?']);
    found.push(...(await audit(b.page, 'after the conflict')));
    expect(found).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
});
