import type { Page } from 'playwright-core';
import {
  accessibilityFindings as audit,
  callApi,
  testArtifactPath,
  testInfra,
  useTestRegions,
} from '@formline/testing';
import { signInToConsole } from './console.fixture';

// The console's Forms screen changing forms, driven in headless Chromium as
// an owner would: a new form (its title, the workspace chosen; an empty title
// said beside its field), a copy of a form with questions, its share link
// opened (the respondent page answers) and copied, its page texts with it, the Edit link, and a
// deletion asked first in the page, saying what goes and how many responses,
// kept with Escape, then confirmed (the API answers 404 for the form since).
// The API's refusals show in words; axe-core finds nothing in any state, on a
// desktop and a phone. The screenshot lands in .data/test/artifacts/
// console-forms.png (the one docs/console-forms.png shows).
describe("the console's Forms screen changing forms, in a browser", () => {
  const { regions, browser, accounts, api, createForm } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses'],
    browser: true,
    accounts: { ada: { region: 'us', password: 'ada-forms-password' } },
  });
  const { ada } = accounts;
  const base = () => regions.baseUrl('us');
  let feedbackId: string;
  let projectsHref: string;
  const messages = { 'label.buttonHint.default': 'Appuyez sur Entrée' };

  beforeAll(async () => {
    const workspace = await api(ada, 'POST', '/workspaces', { name: 'Projects' });
    expect(workspace.status).toBe(201);
    projectsHref = workspace.body.self.href;
    feedbackId = await createForm(ada, {
      title: 'Customer feedback',
      hidden: ['source'],
      fields: [
        { ref: 'name', title: 'Your name?', type: 'short_text' },
        { ref: 'stars', title: 'How was it?', type: 'rating', properties: { steps: 5 } },
      ],
      settings: { language: 'fr' },
    });
    const texts = await api(ada, 'PUT', `/forms/${feedbackId}/messages`, messages);
    expect(texts.status).toBe(204);
    for (const name of ['Ada', 'Grace']) {
      const submitted = await callApi(`${base()}/forms/${feedbackId}/submissions`, {
        method: 'POST',
        body: { answers: [{ field: { ref: 'name' }, type: 'text', text: name }] },
      });
      expect(submitted.status).toBe(201);
    }
  });

  const card = (page: Page, title: string) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  // Focus moves in an effect, after the render that shows its target: waited for, briefly (a
  // locator, since the page's policy refuses the evaluated string waitForFunction polls with).
  const focusReaches = (page: Page, id: string) =>
    page.locator(`[id="${id}"]:focus`).waitFor({ timeout: 5000 });
  const formIdOf = async (page: Page, title: string) =>
    (await card(page, title).getByRole('heading').getAttribute('id'))!.replace(/^form-(.*)-title$/, '$1');
  const noSidewaysScroll = async (page: Page, width: number) =>
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);

  it('creates, duplicates, shares and deletes a form, asking first and saying what goes', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
    const page = await context.newPage();
    await page.goto(`${base()}/console`);
    await signInToConsole(page, ada);
    await card(page, 'Customer feedback').waitFor();

    // A new form: the title is asked first, and an empty one is said beside it.
    await page.getByRole('button', { name: 'New form' }).click();
    await focusReaches(page, 'create-form-title-input');
    await page.getByRole('button', { name: 'Create the form' }).click();
    await page.getByText('Give the form a title: respondents see it.').waitFor();
    await expect(page.getByLabel('Title', { exact: true }).getAttribute('aria-invalid')).resolves.toBe(
      'true',
    );
    const found = await audit(page, 'create, untitled');
    await page.getByLabel('Title', { exact: true }).fill('Event sign-up');
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Projects' });
    found.push(...(await audit(page, 'create')));
    await page.getByRole('button', { name: 'Create the form' }).click();
    await page.getByText('The form “Event sign-up” is created in Projects.').waitFor();
    // Focus on the new form, which the list shows first.
    const eventId = await formIdOf(page, 'Event sign-up');
    await focusReaches(page, `form-${eventId}-title`);
    await expect(page.locator('ul.forms h3').first().textContent()).resolves.toBe('Event sign-up');
    const event = await api(ada, 'GET', `/forms/${eventId}`);
    expect(event.body.workspace.href).toBe(projectsHref);

    // Its Edit link is the builder's address.
    await card(page, 'Event sign-up').getByRole('link', { name: 'Edit Event sign-up' }).click();
    await page.getByRole('heading', { name: 'Edit “Event sign-up”', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/forms/${eventId}/edit`);
    await page.goBack();
    await card(page, 'Customer feedback').waitFor();

    // A copy: the same questions, hidden fields and settings, new ids, the same workspace.
    await card(page, 'Customer feedback')
      .getByRole('button', { name: 'Duplicate Customer feedback' })
      .click();
    await page
      .getByText('The form “Customer feedback (copy)” is created, a copy of “Customer feedback”.')
      .waitFor();
    const copyId = await formIdOf(page, 'Customer feedback (copy)');
    expect(copyId).not.toBe(feedbackId);
    await focusReaches(page, `form-${copyId}-title`);
    const [original, copy] = await Promise.all([
      api(ada, 'GET', `/forms/${feedbackId}`),
      api(ada, 'GET', `/forms/${copyId}`),
    ]);
    expect(copy.status).toBe(200);
    const questions = (form: typeof copy) =>
      form.body.fields.map((field: Record<string, unknown>) => [field.ref, field.title, field.type]);
    expect(questions(copy)).toEqual(questions(original));
    expect(copy.body.fields[0].id).not.toBe(original.body.fields[0].id);
    expect(copy.body.hidden).toEqual(['source']);
    expect(copy.body.settings.language).toBe('fr');
    expect(copy.body.workspace.href).toBe(original.body.workspace.href);
    // Its page texts, a resource of their own, came along.
    expect((await api(ada, 'GET', `/forms/${copyId}/messages`)).body).toEqual(messages);

    // The copy's share link opens its respondent page, and "Copy link" puts it on the clipboard.
    const share = card(page, 'Customer feedback (copy)').getByRole('link', {
      name: /for respondents, new tab/,
    });
    const link = await share.getAttribute('href');
    expect(link).toBe(`${base()}/to/${copyId}`);
    const [respondentPage] = await Promise.all([context.waitForEvent('page'), share.click()]);
    const opened = await respondentPage.waitForLoadState().then(() => respondentPage.title());
    expect(opened).toContain('Customer feedback (copy)');
    await respondentPage.close();
    await card(page, 'Customer feedback (copy)')
      .getByRole('button', { name: 'Copy link of Customer feedback (copy)' })
      .click();
    await page.getByText('Copied the share link of “Customer feedback (copy)”.').waitFor();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(link);

    // Deleting the original is asked first, with its two responses; Escape keeps it.
    await card(page, 'Customer feedback').getByRole('button', { name: 'Delete Customer feedback' }).click();
    const question = page.getByRole('heading', { name: 'Delete the form “Customer feedback”?' });
    await question.waitFor();
    await focusReaches(page, 'confirm-deletion-title');
    const said = await page.locator('.confirm p').textContent();
    expect(said).toContain('its 2 responses, finished or not, with the files respondents uploaded');
    expect(said).toContain('its webhooks and their delivery logs');
    found.push(...(await audit(page, 'deletion question')));
    await page.screenshot({ path: testArtifactPath(testInfra().dataDir, 'console-forms.png') });
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    await focusReaches(page, `form-${feedbackId}-title`);
    expect((await api(ada, 'GET', `/forms/${feedbackId}`)).status).toBe(200);

    // The copy, confirmed: gone from the list, and from the API.
    await card(page, 'Customer feedback (copy)')
      .getByRole('button', { name: 'Delete Customer feedback (copy)' })
      .click();
    await page.getByText('its responses (it has none yet)').waitFor();
    await page.getByRole('button', { name: 'Yes, delete the form and all it holds' }).click();
    await page.getByText('The form “Customer feedback (copy)” is deleted.').waitFor();
    await focusReaches(page, 'forms-title');
    await card(page, 'Customer feedback (copy)').waitFor({ state: 'detached' });
    expect((await api(ada, 'GET', `/forms/${copyId}`)).status).toBe(404);
    found.push(...(await audit(page, 'deleted')));
    expect(found).toEqual([]);
    await context.close();
  });

  it('on a phone: one column, the API’s refusals in words, and a refused clipboard said so', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
    // A browser that refuses the clipboard, as one may without the person's leave.
    await context.addInitScript(
      "navigator.clipboard.writeText = () => Promise.reject(new DOMException('Denied', 'NotAllowedError'));",
    );
    const page = await context.newPage();
    await page.goto(`${base()}/console`);
    const gone = await createForm(ada, { title: 'Soon gone', fields: [] });
    const oldWorkspace = await api(ada, 'POST', '/workspaces', { name: 'Old things' });
    await signInToConsole(page, ada);
    await card(page, 'Soon gone').waitFor();

    await card(page, 'Soon gone').getByRole('button', { name: 'Copy link of Soon gone' }).click();
    await page
      .getByText('The browser refused the clipboard: select the link and copy it yourself.')
      .waitFor();

    // A workspace deleted behind the console's back: creating in it is refused, in the API's words.
    expect((await api(ada, 'DELETE', `/workspaces/${oldWorkspace.body.id}`)).status).toBe(204);
    await page.getByRole('button', { name: 'New form' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Lost');
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Old things' });
    await page.getByRole('button', { name: 'Create the form' }).click();
    const refusal = page.locator('.editor [role="alert"]');
    await expect(refusal.textContent()).resolves.toMatch(/\([A-Z_]+\)/);
    await noSidewaysScroll(page, 375);
    const found = await audit(page, 'phone, create refused');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'New form' }).waitFor();

    // A form deleted behind its back: duplicating it is refused in words; the question still says what goes.
    expect((await api(ada, 'DELETE', `/forms/${gone}`)).status).toBe(204);
    await card(page, 'Soon gone').getByRole('button', { name: 'Duplicate Soon gone' }).click();
    await expect(page.locator('.found > [role="alert"]').textContent()).resolves.toMatch(/\([A-Z_]+\)$/);
    await card(page, 'Soon gone').getByRole('button', { name: 'Delete Soon gone' }).click();
    await page.getByText('all its responses, finished or not').waitFor();
    await noSidewaysScroll(page, 375);
    found.push(...(await audit(page, 'phone, deletion question')));
    await page.getByRole('button', { name: 'Yes, delete the form and all it holds' }).click();
    await expect(page.locator('.found > [role="alert"]').textContent()).resolves.toMatch(/\([A-Z_]+\)$/);
    expect(found).toEqual([]);
    await context.close();
  });
});
