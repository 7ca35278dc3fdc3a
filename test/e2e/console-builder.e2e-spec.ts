import {
  accessibilityFindings as audit,
  testArtifactPath,
  testInfra,
  useTestRegions,
} from '@formline/testing';
import { focusMovedTo, openBuilder, saveStatus } from './console-builder.fixture';

// The console's form builder (#/forms/{id}/edit), driven in headless
// Chromium: a form made through the API with one question gets, through the
// builder's inputs, a multiple choice (its choices renamed, added, moved and
// removed), a rating, a yes/no, a number and a statement (which is removed
// again), questions moved with the keyboard, a welcome screen, a hidden field
// and one of the account's themes; saved (PUT with If-Match), the API holds
// every part of it, and the preview (the form's real page, framed, sandboxed)
// shows the saved version. axe-core finds nothing, on a desktop and a phone.
// The JSON view and the two-tab conflict: console-builder-json.e2e-spec.ts.
// The screenshot lands in .data/test/artifacts/console-builder.png (the one
// docs/console-builder.png shows).
describe("the console's form builder in a browser", () => {
  const { regions, browser, accounts, api } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses'],
    browser: true,
    accounts: { ada: { region: 'us', password: 'ada-builder-password' } },
  });
  const { ada } = accounts;
  const base = () => regions.baseUrl('us');
  let formId: string;
  let themeId: string;

  beforeAll(async () => {
    const created = await api(ada, 'POST', '/forms', {
      title: 'Trip survey',
      fields: [{ ref: 'name', title: 'Your name?', type: 'short_text' }],
    });
    expect(created.status).toBe(201);
    formId = created.body.id;
    const theme = await api(ada, 'POST', '/themes', {
      name: 'Sunny',
      font: 'Karla',
      colors: { question: '#1F2937', answer: '#92400E', button: '#92400E', background: '#FFFBEB' },
    });
    expect(theme.status).toBe(201);
    themeId = theme.body.id;
  });

  it('builds a form of several types, saves it whole, and previews the saved page', async () => {
    const { context, page } = await openBuilder(browser, base(), ada, formId);
    const found: string[] = [];
    const add = async (type: string, title: string) => {
      await page.getByLabel('Type of the new question').selectOption({ label: type });
      await page.getByRole('button', { name: 'Add the question' }).click();
      // Focus goes to the new question's text.
      const id = await focusMovedTo(page, /^q\d+-title$/);
      await page.keyboard.type(title);
      return id.replace('-title', '');
    };

    const meal = await add('Multiple choice', 'Which meal?');
    expect(meal).toBe('q1');
    await page.locator('#q1-choice-0').fill('Fish');
    await page.locator('#q1-choice-1').fill('Pasta');
    await page.getByRole('button', { name: 'Add a choice' }).click();
    await focusMovedTo(page, 'q1-choice-2');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Salad');
    // Moved up with the keyboard: focus stays on the moved choice's button.
    await page.locator('#q1-choice-2-up').focus();
    await page.keyboard.press('Enter');
    await focusMovedTo(page, 'q1-choice-1-up');
    await page.getByRole('button', { name: 'Remove choice 3' }).click();
    await page.getByLabel('Allow more than one choice').check();

    await add('Rating', 'How was it?');
    await page.locator('#q2-steps').fill('4');
    await add('Yes or no', 'Coming back?');
    await page.locator('li.question').nth(3).getByLabel('Required').check();
    await add('Number', 'How many nights?');
    await page.locator('#q4-min').fill('1');
    await page.locator('#q4-max').fill('30');
    await add('Statement', 'Nearly done');
    await page.getByRole('button', { name: 'Remove question 6' }).click();
    // The rating moves above the multiple choice, by the keyboard alone.
    await page.locator('#q2-up').focus();
    await page.keyboard.press('Enter');
    await focusMovedTo(page, 'q1-up');

    await page.getByLabel('Show a welcome screen').check();
    await page.locator('#welcome-title').fill('Welcome aboard');
    await page.locator('#welcome-button').fill('Start');
    await page.getByLabel('Name of a hidden field').fill('Bad Name');
    await page.getByRole('button', { name: 'Add the hidden field' }).click();
    await page.getByText('Use lowercase letters, digits and _ only.').waitFor();
    await page.getByLabel('Name of a hidden field').fill('source');
    await page.getByRole('button', { name: 'Add the hidden field' }).click();
    await page.getByLabel('Theme of the form').selectOption({ label: 'Sunny' });
    await saveStatus(page, 'Changes not saved yet.').waitFor();
    found.push(...(await audit(page, 'builder')));

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saveStatus(page, /^Saved\./).waitFor();
    const stored = (await api(ada, 'GET', `/forms/${formId}`)).body;
    expect(stored.fields.map((field: { type: string; title: string }) => [field.type, field.title])).toEqual([
      ['short_text', 'Your name?'],
      ['rating', 'How was it?'],
      ['multiple_choice', 'Which meal?'],
      ['yes_no', 'Coming back?'],
      ['number', 'How many nights?'],
    ]);
    expect(stored.fields[0].ref).toBe('name');
    expect(stored.fields[1].properties.steps).toBe(4);
    expect(stored.fields[2].properties).toMatchObject({
      allow_multiple_selection: true,
      choices: [{ label: 'Fish' }, { label: 'Salad' }],
    });
    expect(stored.fields[2].ref).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.fields[3].validations.required).toBe(true);
    expect(stored.fields[4].validations).toMatchObject({ min_value: 1, max_value: 30 });
    expect(stored.welcome_screens[0]).toMatchObject({
      title: 'Welcome aboard',
      properties: { button_text: 'Start' },
    });
    expect(stored.hidden).toEqual(['source']);
    expect(stored.theme.href).toBe(`${base()}/themes/${themeId}`);

    // The preview is the form's own page, loaded again for the saved version.
    const preview = page.frameLocator('iframe[title="Preview of the saved form"]');
    await preview.getByText('Welcome aboard').waitFor();
    // The framed page does not take the owner's focus as its screen shows.
    expect(await page.evaluate<string>('document.activeElement?.tagName ?? ""')).not.toBe('IFRAME');
    await preview.getByRole('button', { name: 'Start' }).click();
    await preview.getByText('Your name?').waitFor();
    const frame = page.frames().find((candidate) => candidate.url().includes(`/to/${formId}`))!;
    const data = await frame.evaluate<string>('document.getElementById("form-data").textContent');
    for (const title of ['How was it?', 'Which meal?', 'Coming back?', 'How many nights?']) {
      expect(data).toContain(title);
    }
    // Sandboxed (an opaque origin): the page cannot reach the console's
    // storage, and its submissions are refused by the browser, recording nothing.
    expect(
      await frame.evaluate<string>(
        '(() => { try { return String(sessionStorage.length) } catch { return "refused" } })()',
      ),
    ).toBe('refused');
    expect(
      await frame.evaluate<string>(
        `fetch('/forms/${formId}/submissions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"answers":[]}' }).then(() => 'sent', () => 'refused')`,
      ),
    ).toBe('refused');
    found.push(...(await audit(page, 'builder saved')));
    await page.screenshot({
      path: testArtifactPath(testInfra().dataDir, 'console-builder.png'),
      fullPage: true,
    });

    // A phone: one column, the preview under the inputs.
    await page.setViewportSize({ width: 390, height: 844 });
    const edit = await page.locator('.builder-edit').boundingBox();
    const framed = await page.locator('.preview').boundingBox();
    expect(framed!.x).toBe(edit!.x);
    expect(framed!.y).toBeGreaterThan(edit!.y + edit!.height - 1);
    found.push(...(await audit(page, 'builder on a phone')));

    // A form that is not there (or not the account's): the API's refusal, in words.
    await page.goto(`${base()}/console#/forms/not-a-form/edit`);
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByRole('alert').first().textContent()).toContain('FORM_NOT_FOUND');
    found.push(...(await audit(page, 'builder refused')));
    expect(found).toEqual([]);
    await context.close();
  });
});
