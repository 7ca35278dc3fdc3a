import { readFileSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { accessibilityFindings as audit, useTestRegions } from '@formline/testing';
import { signInToConsole } from './console.fixture';
import { saveStatus } from './console-builder.fixture';
import { withoutSaveDialog } from './console-export.fixture';

// The owner's whole journey through the console, in headless Chromium, on the
// real apps, each step through the console's UI: signed in, a form is created
// on the Forms screen and given a multiple choice, a rating and a short text
// in the builder, then saved; it is answered twice on its share link, as a
// respondent would; Results shows both, opens one, searches for one and
// exports only that one as CSV; Insights counts them and each choice; a
// webhook is added on the Webhooks screen to a receiver on 127.0.0.1 that
// fails, the form is answered once more, the delivery log shows the failure,
// and once the receiver is mended, the failed delivery is replayed from the
// log and delivered. axe-core finds nothing on any screen on the way. Each
// screen's own states are in the other console-*.e2e-spec.ts; this one is
// about the screens working together, one after the other.
// The retry schedule is one step of 300 ms, so a failing receiver ends a
// delivery in two attempts.
describe("the owner's journey through the console, in a browser", () => {
  const { regions, browser, accounts, receiver } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses', 'webhooks', 'dispatcher'],
    browser: true,
    receiver: true,
    extraEnv: { WEBHOOK_RETRY_SCHEDULE_MS: '300', WEBHOOK_RETRY_JITTER: '0', WEBHOOK_TIMEOUT_MS: '2000' },
    accounts: { ada: { region: 'us', password: 'ada-journey-password' } },
  });
  const { ada } = accounts;
  const base = () => regions.baseUrl('us');

  const status = (page: Page, text: string | RegExp) =>
    page.getByRole('status').filter({ hasText: text }).first();
  const card = (page: Page) =>
    page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Team lunch', exact: true }) });
  const backToForms = async (page: Page) => {
    await page.getByRole('link', { name: 'Back to the forms' }).click();
    await card(page).waitFor();
  };

  // The respondent page's screens rise into place: audited once there, as
  // they are read (mid-way, their text is still faint).
  const settledAudit = async (page: Page, screen: string) => {
    await page.evaluate('Promise.all(document.getAnimations().map((animation) => animation.finished))');
    return audit(page, screen);
  };

  // A respondent on the share link: a page of its own, each question answered
  // as it shows, then the ending. Answers the page's axe findings.
  const answer = async (
    context: BrowserContext,
    link: string,
    respondent: { dish: string; stars: number; name: string },
    page?: Page,
  ): Promise<string[]> => {
    const tab = page ?? (await context.newPage());
    if (!page) await tab.goto(link);
    const shows = (title: string) => tab.locator('form.block h1', { hasText: title }).waitFor();
    await shows('Which dish?');
    const found = await settledAudit(tab, 'respondent page');
    await tab.getByText(respondent.dish, { exact: true }).click();
    await tab.getByRole('button', { name: 'OK' }).click();
    await shows('How hungry are you?');
    await tab.getByText(`${respondent.stars} ★`).click();
    await tab.getByRole('button', { name: 'OK' }).click();
    await shows('Your name?');
    await tab.getByRole('textbox').fill(respondent.name);
    await tab.getByRole('button', { name: 'Submit' }).click();
    await tab.locator('.ending').waitFor();
    found.push(...(await settledAudit(tab, 'respondent page ending')));
    await tab.close();
    return found;
  };

  const downloaded = async (page: Page, click: () => Promise<void>) => {
    const [download] = await Promise.all([page.waitForEvent('download'), click()]);
    return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
  };

  // The log reads itself again while a delivery is about to be sent; one not
  // yet planned when the page was read, or a webhook turned off since, needs a Refresh.
  const untilShown = async (page: Page, target: Locator, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await target.isVisible())) {
      if (Date.now() > deadline) throw new Error(`not shown in ${timeoutMs} ms: ${target.toString()}`);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await target.waitFor({ timeout: 1000 }).catch(() => undefined);
    }
  };

  it('creates a form, builds it, gets answers, reads, filters and exports them, sees insights, and replays a failed webhook delivery', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await withoutSaveDialog(context);
    const page = await context.newPage();
    await page.goto(`${base()}/console`);
    await signInToConsole(page, ada);
    const found = await audit(page, 'forms');

    // A new form, on the Forms screen.
    await page.getByRole('button', { name: 'New form' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Team lunch');
    found.push(...(await audit(page, 'new form')));
    await page.getByRole('button', { name: 'Create the form' }).click();
    await page.getByText(/^The form “Team lunch” is created/).waitFor();

    // Its questions, in the builder.
    await card(page).getByRole('link', { name: 'Edit Team lunch' }).click();
    await page.getByRole('heading', { name: 'Edit “Team lunch”', level: 1 }).waitFor();
    const formId = /^#\/forms\/([^/]+)\/edit$/.exec(new URL(page.url()).hash)![1];
    // Filled by their labels, not typed where the focus is: the preview's page
    // takes the focus whenever it shows a screen (see the builder's spec for focus).
    const add = async (type: string, title: string) => {
      const count = await page.locator('li.question').count();
      await page.getByLabel('Type of the new question').selectOption({ label: type });
      await page.getByRole('button', { name: 'Add the question' }).click();
      const added = page.locator('li.question').nth(count);
      await added.getByLabel('Question', { exact: true }).fill(title);
      return added;
    };
    const dish = await add('Multiple choice', 'Which dish?');
    await dish.getByLabel('Choice 1', { exact: true }).fill('Curry');
    await dish.getByLabel('Choice 2', { exact: true }).fill('Salad');
    await dish.getByRole('button', { name: 'Add a choice' }).click();
    await dish.getByLabel('Choice 3', { exact: true }).fill('Soup');
    await add('Rating', 'How hungry are you?');
    await add('Short text', 'Your name?');
    await saveStatus(page, 'Changes not saved yet.').waitFor();
    found.push(...(await audit(page, 'builder')));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saveStatus(page, /^Saved\./).waitFor();
    found.push(...(await audit(page, 'builder saved')));

    // Answered twice on its share link: the first from the Forms screen's link (a new tab).
    await backToForms(page);
    const share = card(page).getByRole('link', { name: /the page of Team lunch for respondents/ });
    const link = (await share.getAttribute('href'))!;
    expect(link).toBe(`${base()}/to/${formId}`);
    const [opened] = await Promise.all([context.waitForEvent('page'), share.click()]);
    found.push(...(await answer(context, link, { dish: 'Curry', stars: 4, name: 'Ada Lovelace' }, opened)));
    found.push(...(await answer(context, link, { dish: 'Salad', stars: 2, name: 'Grace Hopper' })));

    // Results: both, one opened whole.
    await card(page).getByRole('link', { name: 'Results of Team lunch' }).click();
    await page.getByRole('heading', { name: 'Results of “Team lunch”', level: 1 }).waitFor();
    await status(page, '2 responses on this page, newest first (2 in all).').waitFor();
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    expect((await row('Grace Hopper').locator('td').allTextContents()).slice(2)).toEqual([
      'Completed',
      'Salad',
      '2',
      'Grace Hopper',
    ]);
    await row('Ada Lovelace')
      .getByRole('link', { name: /^Open response / })
      .click();
    const response = page.getByRole('region', { name: /^Response / });
    await response.waitFor();
    const facts = (await response.locator('dt, dd').allTextContents()).join('|');
    expect(facts).toContain('Which dish?|Curry|How hungry are you?|4|Your name?|Ada Lovelace');
    found.push(...(await audit(page, 'results, one opened')));
    await response.getByRole('link', { name: 'Close the response' }).click();
    await response.waitFor({ state: 'detached' });

    // Searched for one, and only that one exported.
    // Enter on the search box itself: closing the response gives the focus
    // back to its row's link once the page has drawn again.
    const search = page.getByLabel('Search the answers');
    await search.fill('grace');
    await search.press('Enter');
    await status(page, '1 response on this page, newest first (1 matching).').waitFor();
    expect(await page.locator('table.responses tbody tr').count()).toBe(1);
    found.push(...(await audit(page, 'results, searched')));
    const csv = await downloaded(page, () =>
      page.getByRole('button', { name: 'Export these results' }).click(),
    );
    expect(csv.name).toBe(`${formId}-responses.csv`);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('Which dish?');
    expect(lines[1]).toContain('Grace Hopper');
    expect(lines[1]).toContain('Salad');
    expect(csv.text).not.toContain('Ada Lovelace');
    await status(page, `The export of 1 response is downloaded as ${formId}-responses.csv.`).waitFor();

    // Insights: the count, and each choice's share.
    await backToForms(page);
    await card(page).getByRole('link', { name: 'Insights of Team lunch' }).click();
    await page.getByRole('heading', { name: 'Which dish?', level: 3 }).waitFor();
    const responses = page
      .locator('dl.figures div')
      .filter({ has: page.locator('dt', { hasText: 'Responses' }) });
    await expect(responses.locator('dd').textContent()).resolves.toBe('2');
    const dishes = page.locator('section[aria-labelledby^="answers-"]:has(h3:text-is("Which dish?"))');
    const shareOf = async (choice: string) =>
      (
        await dishes
          .locator('tbody tr')
          .filter({ has: page.getByRole('rowheader', { name: choice, exact: true }) })
          .locator('td')
          .allTextContents()
      ).map((text) => text.trim());
    expect(await shareOf('Curry')).toEqual(['1', '50%']);
    expect(await shareOf('Salad')).toEqual(['1', '50%']);
    expect(await shareOf('Soup')).toEqual(['0', '0%']);
    found.push(...(await audit(page, 'insights')));

    // A webhook to a receiver that fails; one more answer; the failure in the log.
    receiver.answer('/lunch', () => ({ status: 500 }));
    await backToForms(page);
    await card(page).getByRole('link', { name: 'Webhooks of Team lunch' }).click();
    await page.getByRole('heading', { name: 'Webhooks of “Team lunch”', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Tag').fill('lunch');
    await page.getByLabel('Address (URL)').fill(receiver.url('/lunch'));
    found.push(...(await audit(page, 'new webhook')));
    await page.getByRole('button', { name: 'Create the webhook' }).click();
    await status(page, 'The webhook lunch is created.').waitFor();
    found.push(...(await audit(page, 'webhooks')));
    found.push(...(await answer(context, link, { dish: 'Soup', stars: 5, name: 'Alan Turing' })));
    const attempts = await receiver.until('/lunch', (requests) => requests.length >= 2);
    const { event_id: eventId, form_response: sent } = JSON.parse(attempts[0].body);
    expect(JSON.stringify(sent.answers)).toContain('Alan Turing');
    await page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'lunch' }) })
      .getByRole('link', { name: 'Delivery log lunch' })
      .click();
    await page.getByRole('heading', { name: 'Delivery log of lunch', level: 1 }).waitFor();
    const delivery = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: new RegExp(`event ${eventId}$`) }) });
    await untilShown(page, delivery.getByText('Stopped after 2 attempts: HTTP 500'));
    found.push(...(await audit(page, 'delivery log, failed')));

    // Mended: replayed from the log, and delivered.
    receiver.answer('/lunch', () => ({ status: 200 }));
    await delivery.getByRole('button', { name: `Replay the delivery of event ${eventId}` }).click();
    await status(page, `The delivery of event ${eventId} is sent again.`).waitFor();
    await untilShown(page, delivery.getByText('Delivered after 3 attempts.'));
    await delivery.getByText('Succeeded, HTTP 200').waitFor();
    expect(receiver.at('/lunch')).toHaveLength(3);
    expect(JSON.parse(receiver.at('/lunch')[2].body).event_id).toBe(eventId);
    found.push(...(await audit(page, 'delivery log, replayed')));
    expect(found).toEqual([]);
    await context.close();
  });
});
