import type { Locator, Page } from 'playwright-core';
import {
  accessibilityFindings as audit,
  callApi,
  testArtifactPath,
  testInfra,
  useTestRegions,
} from '@formline/testing';
import { signInToConsole } from './console.fixture';

// The console's Webhooks screen, driven in headless Chromium as the owner
// would: from a form on the Forms screen to its webhooks, a webhook created
// (with the keyboard alone) to a real receiver on 127.0.0.1, a test delivery
// (an extension of the API) sent and seen in the delivery log; the receiver then fails, the log
// shows each failed attempt and why delivery stopped (the webhook turned
// itself off); the delivery is replayed and succeeds; the webhook is turned
// on; the receiver fails again and every failed delivery of the last day is
// replayed at once (an extension of the API); the webhook is changed, and
// deleted once confirmed. The API's refusals show in words.
// axe-core finds nothing on any of these screens, on a desktop and a phone.
// The retry schedule is one step of 300 ms, so a failing receiver ends a
// delivery in two attempts. Screenshots land in .data/test/artifacts/
// (console-webhooks-log.png is the one docs/console-webhooks.png shows).
describe("the console's Webhooks screen in a browser", () => {
  const { regions, browser, accounts, api, createForm, receiver, hookToReceiver } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses', 'webhooks', 'dispatcher'],
    browser: true,
    receiver: true,
    extraEnv: { WEBHOOK_RETRY_SCHEDULE_MS: '300', WEBHOOK_RETRY_JITTER: '0', WEBHOOK_TIMEOUT_MS: '2000' },
    accounts: { ada: { region: 'us', password: 'ada-webhooks-password' } },
  });
  const { ada } = accounts;
  const base = () => regions.baseUrl('us');
  const artifact = (name: string) => testArtifactPath(testInfra().dataDir, name);
  const numberForm = (title: string) => ({ title, fields: [{ ref: 'n', title: 'N', type: 'number' }] });
  let ordersId: string;

  beforeAll(async () => {
    ordersId = await createForm(ada, numberForm('Orders'));
  });

  const signIn = async (page: Page) => {
    await page.goto(`${base()}/console`);
    await signInToConsole(page, ada);
  };

  const submit = async (formId: string): Promise<void> => {
    const response = await callApi(`${base()}/forms/${formId}/submissions`, {
      method: 'POST',
      body: { answers: [{ field: { ref: 'n' }, type: 'number', number: 7 }] },
    });
    expect(response.status).toBe(201);
  };
  const eventIdOf = (body: string) => (JSON.parse(body) as { event_id: string }).event_id;
  const status = (page: Page, text: string | RegExp) =>
    page.getByRole('status').filter({ hasText: text }).first();
  const deliveryOf = (page: Page, eventId: string): Locator =>
    page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: new RegExp(`event ${eventId}$`) }) });
  // Polled with evaluate, which the page's policy allows (waitForFunction's own polling evaluates a string, which it refuses).
  const untilTrue = async (page: Page, expression: string, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await page.evaluate<boolean>(expression))) {
      if (Date.now() > deadline) throw new Error(`still false after ${timeoutMs} ms: ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
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

  // The newest delivery on the Webhooks screen is read with the list: read again until it shows.
  const untilShownAfterReload = async (target: Locator, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await target.isVisible())) {
      if (Date.now() > deadline) throw new Error(`not shown in ${timeoutMs} ms: ${target.toString()}`);
      await target.page().reload();
      await target.waitFor({ timeout: 1000 }).catch(() => undefined);
    }
  };

  it('creates a webhook with the keyboard, shows its deliveries, a failure and why it stopped, replays one and a window, changes and deletes the webhook', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page);
    const orders = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Orders' }) });
    await orders.getByRole('link', { name: 'Webhooks of Orders' }).click();
    await page.getByRole('heading', { name: 'Webhooks of “Orders”', level: 1 }).waitFor();
    await status(page, '0 webhooks.').waitFor();
    const found = await audit(page, 'no webhooks');

    // The keyboard alone: the button, then the editor's fields in order; Enter sends.
    await page.getByRole('button', { name: 'New webhook' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New webhook' }).waitFor();
    // Focus moves to the editor (once it has rendered), so the next Tab reaches its first field.
    await untilTrue(page, "document.activeElement?.textContent === 'New webhook'");
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    // Nothing typed: each mistake is said beside its field, and nothing is sent.
    await page.getByText('Give the webhook a tag (its name in the API).').waitFor();
    await page.getByText('Give the address the webhook posts to.').waitFor();
    await expect(page.getByLabel('Tag').getAttribute('aria-invalid')).resolves.toBe('true');
    found.push(...(await audit(page, 'editor with mistakes')));
    await page.getByLabel('Tag').focus();
    await page.keyboard.type('orders');
    await page.keyboard.press('Tab');
    await page.keyboard.type(receiver.url('/orders'));
    await page.keyboard.press('Tab');
    await page.keyboard.type('a-signing-secret');
    await page.keyboard.press('Enter');
    await status(page, 'The webhook orders is created.').waitFor();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'orders' }) });
    await card.getByText('No delivery yet').waitFor();
    await card.getByText('On', { exact: true }).waitFor();
    // Written as typed; the secret is stored but never put in the page.
    const stored = await api(ada, 'GET', `/forms/${ordersId}/webhooks/orders`);
    expect(stored.body).toMatchObject({
      url: receiver.url('/orders'),
      enabled: true,
      verify_ssl: true,
      secret: 'a-signing-secret',
      event_types: { form_response: true, form_response_partial: false },
    });
    expect(await page.content()).not.toContain('a-signing-secret');
    found.push(...(await audit(page, 'one webhook')));

    // A test delivery is sent, and the log shows its attempt.
    await card.getByRole('button', { name: 'Send a test delivery to orders' }).click();
    await status(page, 'A test delivery to orders is sent').waitFor();
    const [first] = await receiver.until('/orders', (requests) => requests.length >= 1);
    expect(JSON.parse(first.body).form_response.token).toMatch(/^test-/);
    await untilShownAfterReload(card.getByText(/^Last delivery: Delivered/));
    await card.getByRole('link', { name: 'Delivery log orders' }).click();
    await page.getByRole('heading', { name: 'Delivery log of orders', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/forms/${ordersId}/webhooks/orders/deliveries`);
    const delivered = deliveryOf(page, eventIdOf(first.body));
    await untilShown(page, delivered.getByText('Delivered after 1 attempt.'));
    await delivered.getByText('Succeeded, HTTP 200').waitFor();
    await delivered.getByText(/^\d+ ms$|^\d+(\.\d)? s$/).waitFor();

    // The receiver fails: two attempts, then delivery stops and turns the webhook off.
    receiver.answer('/orders', () => ({ status: 500 }));
    await submit(ordersId);
    const requests = await receiver.until('/orders', (all) => all.length >= 3);
    const failedEvent = eventIdOf(requests[2].body);
    expect(eventIdOf(requests[1].body)).toBe(failedEvent);
    const failed = deliveryOf(page, failedEvent);
    await untilShown(page, failed.getByText('Stopped after 2 attempts: HTTP 500'));
    expect(await failed.getByText('Failed, HTTP 500: the receiver answered with an error').count()).toBe(2);
    await untilShown(page, page.getByText(/, off: turned off by delivery/));
    found.push(...(await audit(page, 'delivery log with a failure')));

    // Mended, the failed delivery is replayed from the log and succeeds.
    receiver.answer('/orders', () => ({ status: 204 }));
    await failed.getByRole('button', { name: `Replay the delivery of event ${failedEvent}` }).click();
    await status(page, `The delivery of event ${failedEvent} is sent again.`).waitFor();
    await untilShown(page, failed.getByText('Delivered after 3 attempts.'));
    await failed.getByText('Succeeded, HTTP 204').waitFor();
    expect(receiver.at('/orders').length).toBe(4);
    found.push(...(await audit(page, 'delivery log after a replay')));
    await page.screenshot({ path: artifact('console-webhooks-log.png'), fullPage: true });

    // Back to the webhooks: it says it turned itself off; it is turned on again.
    await page.getByRole('link', { name: 'Back to the webhooks' }).click();
    await card.getByText(/^Off: turned off by delivery/).waitFor();
    await card.getByText(/^Last delivery: Delivered/).waitFor();
    await card.getByRole('button', { name: 'Turn on orders' }).click();
    await status(page, 'The webhook orders is on.').waitFor();
    await expect(api(ada, 'GET', `/forms/${ordersId}/webhooks/orders`)).resolves.toMatchObject({
      body: { enabled: true, disabled_reason: null },
    });
    await page.screenshot({ path: artifact('console-webhooks.png'), fullPage: true });

    // Down again for one more submission: every failed delivery of the last day is replayed at once.
    receiver.answer('/orders', () => ({ status: 503 }));
    await submit(ordersId);
    const downRequests = await receiver.until('/orders', (all) => all.length >= 6);
    const downEvent = eventIdOf(downRequests[5].body);
    await card.getByRole('link', { name: 'Delivery log orders' }).click();
    const down = deliveryOf(page, downEvent);
    await untilShown(page, down.getByText('Stopped after 2 attempts: HTTP 503'));
    receiver.answer('/orders', () => ({ status: 200 }));
    await page.getByRole('button', { name: 'Replay every failed delivery of this window' }).click();
    await status(page, '1 failed delivery is sent again.').waitFor();
    await untilShown(page, down.getByText('Delivered after 3 attempts.'));
    // The one replayed before had succeeded: it was not sent again.
    expect(receiver.at('/orders').length).toBe(7);
    found.push(...(await audit(page, 'after replaying a window')));
    await page.getByRole('link', { name: 'Back to the webhooks' }).click();

    // Changed: a new address, the secret removed, partial responses too.
    await card.getByRole('button', { name: 'Edit orders' }).click();
    await page.getByRole('heading', { name: 'Change the webhook orders' }).waitFor();
    await expect(page.getByLabel('New secret').inputValue()).resolves.toBe('');
    await page.getByLabel('Address (URL)').fill(receiver.url('/orders-2'));
    await page.getByLabel('Remove the secret').check();
    await page.getByLabel('Partial responses').check();
    found.push(...(await audit(page, 'editing')));
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await status(page, 'The webhook orders is saved.').waitFor();
    await expect(api(ada, 'GET', `/forms/${ordersId}/webhooks/orders`)).resolves.toMatchObject({
      body: {
        url: receiver.url('/orders-2'),
        secret: null,
        event_types: { form_response: true, form_response_partial: true },
      },
    });

    // The API's refusal, in its words: an internal address is not allowed.
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Tag').fill('internal');
    await page.getByLabel('Address (URL)').fill('https://10.0.0.1/hook');
    await page.getByRole('button', { name: 'Create the webhook' }).click();
    const refusal = page
      .getByRole('alert')
      .filter({ hasText: /\(VALIDATION_ERROR\)|internal, private or reserved/ });
    await refusal.waitFor();
    found.push(...(await audit(page, 'refused by the API')));
    await page.getByRole('button', { name: 'Cancel' }).click();

    // Deleted once confirmed; Escape first keeps it.
    await card.getByRole('button', { name: 'Delete orders' }).click();
    await untilTrue(page, "document.activeElement?.id === 'confirm-deletion-title'");
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Delete the webhook orders?' }).waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Delete orders' }).click();
    found.push(...(await audit(page, 'confirming a deletion')));
    await page.getByRole('button', { name: 'Yes, delete orders' }).click();
    await status(page, 'The webhook orders is deleted.').waitFor();
    await expect(api(ada, 'GET', `/forms/${ordersId}/webhooks`)).resolves.toMatchObject({
      body: { items: [] },
    });
    expect(found).toEqual([]);
    await context.close();
  });

  it('works on a phone, from an address that names the screen, pages the log, and keeps the page on a reload', async () => {
    const signupsId = await createForm(ada, numberForm('Signups'));
    await hookToReceiver(ada, signupsId, 'signups');
    await submit(signupsId);
    await receiver.until('/signups', (requests) => requests.length >= 1);
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${base()}/console#/forms/${signupsId}/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks of “Signups”', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Webhooks of “Signups”', level: 1 }).waitFor();
    await page.getByText(/^Last delivery: (Delivered|Pending)/).waitFor();
    const found = await audit(page, 'phone webhooks');
    // Nothing wider than the screen: no sideways scrolling.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: artifact('console-webhooks-phone.png'), fullPage: true });

    await page.getByRole('link', { name: 'Delivery log signups' }).click();
    await untilShown(page, page.getByText('Delivered after 1 attempt.'));
    found.push(...(await audit(page, 'phone delivery log')));
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: artifact('console-webhooks-log-phone.png'), fullPage: true });

    // 21 deliveries: two pages of the log as the API pages them (20, then 1), kept in the address.
    for (let n = 0; n < 20; n++) await submit(signupsId);
    await receiver.until('/signups', (requests) => requests.length >= 21);
    await untilShown(page, status(page, '20 deliveries on this page, newest first.'));
    await expect(page.getByRole('button', { name: 'Newest' }).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Older' }).click();
    await status(page, '1 delivery on this page, newest first.').waitFor();
    expect(new URL(page.url()).hash).toMatch(/\/deliveries\?before=/);
    await page.reload();
    await status(page, '1 delivery on this page, newest first.').waitFor();
    await expect(page.getByRole('button', { name: 'Older' }).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Newer' }).click();
    await status(page, '20 deliveries on this page, newest first.').waitFor();
    await page.getByRole('button', { name: 'Newest' }).click();
    await status(page, '20 deliveries on this page, newest first.').waitFor();
    expect(new URL(page.url()).hash).toBe(`#/forms/${signupsId}/webhooks/signups/deliveries`);

    // Back in the browser's history, page by page, to the webhooks; then the forms.
    for (let back = 0; back < 4; back++) await page.goBack();
    await page.getByRole('heading', { name: 'Webhooks of “Signups”', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Back to the forms' }).click();
    await page.getByRole('heading', { name: 'Forms', level: 1 }).waitFor();
    expect(found).toEqual([]);
    await context.close();
  });
});
