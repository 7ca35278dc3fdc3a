import type { Page } from 'playwright-core';
import {
  accessibilityFindings as audit,
  callApi,
  postForm,
  testArtifactPath,
  testInfra,
  useTestRegions,
} from '@formline/testing';
import { signInToConsole } from './console.fixture';

// The owner's console (/console), driven in headless Chromium as its owner
// would: it signs in through the region's real sign-in page (the console is
// the deployment's public OAuth client, with PKCE), lists the account's
// workspaces and forms, searches them by title, with the keyboard, on a
// desktop and a phone screen, with no accessibility violation, and signs out
// by revoking its token. Screenshots land in .data/test/artifacts/
// (console-desktop.png is the one docs/console.png shows).
describe('the console in a browser', () => {
  const { regions, browser, accounts, api, createForm } = useTestRegions({
    apps: ['gateway', 'global'],
    browser: true,
    accounts: { ada: { region: 'eu', password: 'ada-console-password' } },
  });
  const { ada } = accounts;
  const base = (region: 'us' | 'eu') => regions.baseUrl(region);
  const artifact = (name: string) => testArtifactPath(testInfra().dataDir, name);
  let feedbackId: string;
  let projectFormId: string;

  beforeAll(async () => {
    feedbackId = await createForm(ada, { title: 'Customer feedback', fields: [] });
    await createForm(ada, { title: 'Team lunch poll', fields: [] });
    const workspace = await api(ada, 'POST', '/workspaces', { name: 'Projects' });
    expect(workspace.status).toBe(201);
    projectFormId = await createForm(ada, {
      title: 'Project kickoff survey',
      fields: [],
      workspace: { href: workspace.body.self.href },
    });
  });

  // Signed in, and the console says by whom.
  const signIn = async (page: Page) => {
    await signInToConsole(page, ada);
    await page.getByText(`Signed in as ${ada.email}`).waitFor();
  };
  const listedTitles = (page: Page) => page.locator('ul.forms h3').allTextContents();
  const waitForSummary = (page: Page, text: string) =>
    page.getByRole('status').filter({ hasText: text }).first().waitFor();

  it('signs in on the default address (the account is an EU one), lists, searches, and signs out by revoking its token', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base('us'))) outside.push(request.url());
    });
    await page.goto(`${base('us')}/console`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const found = await audit(page, 'sign-in');
    // What the first screen cost: the page and its files, as the browser fetched them.
    // Browser code, given as text: the spec itself is type-checked without the DOM's types.
    const firstScreen = await page.evaluate<{ contentLoadedMs: number; bytes: number }>(
      `(() => {
        const navigation = performance.getEntriesByType('navigation')[0];
        const files = performance.getEntriesByType('resource');
        return {
          contentLoadedMs: navigation.domContentLoadedEventEnd,
          bytes: navigation.encodedBodySize + files.reduce((sum, file) => sum + file.encodedBodySize, 0),
        };
      })()`,
    );
    expect(firstScreen.contentLoadedMs).toBeLessThan(1000);
    expect(firstScreen.bytes).toBeLessThan(250 * 1024);

    await signIn(page);
    // The code and state left the address at once.
    expect(new URL(page.url()).search).toBe('');
    await waitForSummary(page, '4 forms');
    expect((await listedTitles(page)).sort()).toEqual([
      'Customer feedback',
      'Project kickoff survey',
      'Team lunch poll',
      'Test form',
    ]);
    // Each form's share link is its page for respondents, on the default address.
    const feedback = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Customer feedback' }) });
    const shareLink = feedback.getByRole('link', { name: /for respondents, new tab/ });
    await expect(shareLink.textContent()).resolves.toContain(`${base('us')}/to/${feedbackId}`);
    await expect(shareLink.getAttribute('href')).resolves.toBe(`${base('us')}/to/${feedbackId}`);
    found.push(...(await audit(page, 'forms')));

    // The keyboard alone: the first Tab reaches the way past the header, then the search is typed into.
    await page.keyboard.press('Tab');
    await expect(page.evaluate('document.activeElement?.textContent')).resolves.toBe('Skip to the content');
    await page.getByLabel('Search by title').focus();
    await page.keyboard.type('FEEDBACK');
    await waitForSummary(page, '1 form with “FEEDBACK” in the title');
    expect(await listedTitles(page)).toEqual(['Customer feedback']);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('nothing like it');
    await waitForSummary(page, 'No form');
    found.push(...(await audit(page, 'no match')));
    await page.getByLabel('Search by title').fill('');

    await page.getByRole('button', { name: /^Projects/ }).click();
    await page.getByRole('heading', { name: 'Forms in Projects' }).waitFor();
    await waitForSummary(page, '1 form.');
    expect(await listedTitles(page)).toEqual(['Project kickoff survey']);
    await page.getByRole('button', { name: 'All workspaces' }).click();
    await waitForSummary(page, '4 forms');
    await page.screenshot({ path: artifact('console-desktop.png') });

    const token = await page.evaluate<string | null>("sessionStorage.getItem('formline.console.token')");
    expect(token).toMatch(/^tfo_/);
    expect((await callApi(`${base('us')}/forms/${projectFormId}`, { token: token! })).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    await expect(
      page.evaluate<string | null>("sessionStorage.getItem('formline.console.token')"),
    ).resolves.toBeNull();
    const after = await callApi(`${base('us')}/forms`, { token: token! });
    expect({ status: after.status, code: after.body.code }).toEqual({ status: 401, code: 'TOKEN_REVOKED' });
    expect(outside).toEqual([]);
    expect(found).toEqual([]);
    await context.close();
  });

  it('works on a phone on the EU address, and says in words when its sign-in was ended elsewhere', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${base('eu')}/console`);
    const found = await audit(page, 'phone sign-in');
    await signIn(page);
    await waitForSummary(page, '4 forms');
    found.push(...(await audit(page, 'phone forms')));
    // Nothing wider than the screen: no sideways scrolling.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: artifact('console-phone.png'), fullPage: true });

    // The token revoked behind the console's back: its next request says so, and it signs out.
    const token = await page.evaluate<string | null>("sessionStorage.getItem('formline.console.token')");
    expect(
      (await postForm(`${base('eu')}/oauth/revoke`, { token: token!, client_id: 'formline-console' })).status,
    ).toBe(200);
    await page.getByLabel('Search by title').fill('poll');
    await page.getByText(/Your sign-in has ended: .*\(TOKEN_REVOKED\)/).waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    found.push(...(await audit(page, 'phone, signed out')));
    expect(found).toEqual([]);
    await context.close();
  });
});
