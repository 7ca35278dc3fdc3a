import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callApi, uploadTestImage, useTestRegions } from '@formline/testing';
import {
  artifact,
  expectTestImageColour,
  focusedId,
  question,
  respondentPageRegions,
  shownPicture,
  watchOrigins,
} from './respondent-page.fixture';

// The respondent's page (`_links.display`), driven in headless Chromium as a
// respondent would: keyboard, mouse, a phone-sized screen. Its submissions go
// through the public endpoint to the form's region, the webhook fires, and the
// ending shown is the one the form's logic chose. Here, the way through a form
// and how the page is served (regions, saved progress, retries, redirects,
// framing, caching, private forms); the kinds of question, the layouts and
// languages, and accessibility are in the other respondent-page-*.e2e-spec.ts.
// Screenshots land in .data/test/artifacts/.
describe('the respondent page in a browser: a way through a form', () => {
  const { regions, browser, receiver, accounts } = useTestRegions({
    browser: true,
    receiver: true,
    accounts: { alice: 'us', bob: 'eu' },
  });
  const { alice, bob } = accounts;
  let surveyId: string; // bob's, with logic and a hidden field

  const { base, responsesOf } = respondentPageRegions(regions);

  const survey = (themeHref: string, planPicture: string) => ({
    title: 'Team plan survey',
    hidden: ['source'],
    theme: { href: themeHref },
    welcome_screens: [
      {
        ref: 'hello',
        title: 'Welcome to <b>Formline</b>',
        properties: {
          description: 'A few questions about your team.',
          show_button: true,
          button_text: 'Begin',
        },
      },
    ],
    fields: [
      {
        ref: 'name',
        title: 'Your name?',
        type: 'short_text',
        validations: { required: true, max_length: 40 },
      },
      {
        ref: 'plan',
        title: 'Which plan?',
        type: 'multiple_choice',
        attachment: {
          type: 'image',
          href: planPicture,
          properties: { description: 'The plans side by side' },
        },
        properties: {
          choices: [
            { ref: 'basic', label: 'Basic' },
            { ref: 'pro', label: 'Pro' },
          ],
        },
        validations: { required: true },
      },
      {
        ref: 'seats',
        title: 'How many seats?',
        type: 'number',
        validations: { required: true, min_value: 1, max_value: 100 },
      },
      { ref: 'email', title: 'Work email?', type: 'email', validations: { required: true } },
      { ref: 'start', title: 'When do you start?', type: 'date' },
      { ref: 'happy', title: 'How happy are you today?', type: 'rating', properties: { steps: 5 } },
      { ref: 'newsletter', title: 'Newsletter?', type: 'yes_no' },
      { ref: 'terms', title: 'Do you accept the terms?', type: 'legal', validations: { required: true } },
    ],
    thankyou_screens: [
      { ref: 'tys_pro', title: 'Welcome aboard, {{field:name}}!' },
      { ref: 'tys_basic', title: 'Thanks, basic friend!' },
    ],
    logic: [
      {
        type: 'field',
        ref: 'plan',
        actions: [
          {
            action: 'add',
            details: { target: { type: 'variable', value: 'score' }, value: { type: 'constant', value: 10 } },
            condition: {
              op: 'is',
              vars: [
                { type: 'field', value: 'plan' },
                { type: 'choice', value: 'pro' },
              ],
            },
          },
          {
            action: 'jump',
            details: { to: { type: 'field', value: 'email' } },
            condition: {
              op: 'is',
              vars: [
                { type: 'field', value: 'plan' },
                { type: 'choice', value: 'basic' },
              ],
            },
          },
        ],
      },
      {
        type: 'field',
        ref: 'terms',
        actions: [
          {
            action: 'jump',
            details: { to: { type: 'thankyou', value: 'tys_pro' } },
            condition: {
              op: 'and',
              vars: [
                {
                  op: 'is',
                  vars: [
                    { type: 'field', value: 'plan' },
                    { type: 'choice', value: 'pro' },
                  ],
                },
                {
                  op: 'equal',
                  vars: [
                    { type: 'hidden', value: 'source' },
                    { type: 'constant', value: 'ads' },
                  ],
                },
              ],
            },
          },
          {
            action: 'jump',
            details: { to: { type: 'thankyou', value: 'tys_basic' } },
            condition: { op: 'always', vars: [] },
          },
        ],
      },
    ],
    settings: {
      progress_bar: 'percentage',
      show_time_to_complete: true,
      meta: { description: 'Tell us about your team', allow_indexing: false },
    },
  });

  beforeAll(async () => {
    const theme = await callApi(`${base('eu')}/themes`, {
      token: bob.token,
      method: 'POST',
      body: {
        name: 'Night',
        font: 'Karla',
        colors: { question: '#FFFFFF', answer: '#F5C518', button: '#F5C518', background: '#101820' },
        rounded_corners: 'large',
      },
    });
    // Bob's picture, named (as the Images API gives it) on the US address.
    const planPicture = await uploadTestImage(base('eu'), bob.token, 'plans.png');
    expect(planPicture.startsWith(`${base('us')}/images/`)).toBe(true);
    const created = await callApi(`${base('us')}/forms`, {
      token: bob.token,
      method: 'POST',
      body: survey(`${base('us')}/themes/${theme.body.id}`, planPicture),
    });
    expect(created.status).toBe(201);
    surveyId = created.body.id;
    expect(created.body._links.display).toBe(`${base('us')}/to/${surveyId}`);
    const hook = await callApi(`${base('eu')}/forms/${surveyId}/webhooks/page`, {
      token: bob.token,
      method: 'PUT',
      body: { url: receiver.url('/survey'), enabled: true },
    });
    expect(hook.status).toBe(200);
  }, 600_000);

  it("is opened on the other region's address, moves to the form's region, and shows the ending the logic chose", async () => {
    const context = await browser.newContext();
    const origins = watchOrigins(context);
    const page = await context.newPage();
    const answer = await page.goto(`${base('us')}/to/${surveyId}?source=ads&unknown=x`);
    expect(answer?.status()).toBe(200);
    // Redirected to the page in the EU, where bob's responses live, hidden fields kept.
    expect(page.url()).toBe(`${base('eu')}/to/${surveyId}?source=ads&unknown=x`);
    expect(answer!.request().redirectedFrom()?.url()).toBe(
      `${base('us')}/to/${surveyId}?source=ads&unknown=x`,
    );
    const headers = answer!.headers();
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).toContain("img-src 'self';");
    expect(headers['cache-control']).toBe('public, no-cache');
    expect(headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(await page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex, nofollow');
    expect(await page.locator('meta[name=description]').getAttribute('content')).toBe(
      'Tell us about your team',
    );

    // The welcome screen, as text (the title's markup is not markup), with the time to complete.
    expect(await page.locator('.welcome h1').innerText()).toBe('Welcome to <b>Formline</b>');
    expect(await page.locator('.welcome .facts').innerText()).toBe('Takes 2 min');
    // The theme: its background and answer colours.
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(16, 24, 32)');
    await page.screenshot({ path: artifact('respondent-page-welcome.png') });
    await page.getByRole('button', { name: 'Begin' }).click();

    expect(await question(page)).toContain('Your name?');
    await page.getByRole('textbox').fill('Ada');
    await page.keyboard.press('Enter');
    expect(await question(page)).toContain('Which plan?');
    expect(await page.locator('.progress').getAttribute('aria-valuetext')).toBe('13% answered');
    // The question's picture, from the page's own (EU) origin though the form names it on the US one.
    const planPicture = await shownPicture(page, 'img[alt="The plans side by side"]');
    expect(planPicture.src).toMatch(new RegExp(`^${base('eu')}/images/[A-Za-z0-9]+/image/default$`));
    expect(planPicture.naturalWidth).toBe(8);
    expectTestImageColour(planPicture.colour);
    await page.getByText('Pro').click();
    await page.screenshot({ path: artifact('respondent-page-question.png') });
    await page.getByRole('button', { name: 'OK' }).click();

    // Logic: a pro plan asks for seats, with its bounds.
    expect(await question(page)).toContain('How many seats?');
    await page.getByRole('spinbutton').fill('500');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alert').innerText()).toBe('At most 100');
    await page.getByRole('spinbutton').fill('12');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox').fill('ada@example.com');
    await page.keyboard.press('Enter');
    await page.locator('input[type=date]').fill('2027-01-15');
    await page.keyboard.press('Enter');
    await page.getByText('4 ★').click();
    await page.keyboard.press('Enter');
    await page.getByText('Yes').click();
    await page.keyboard.press('Enter');
    await page.getByText('I accept', { exact: true }).click();
    expect(await page.locator('form.block button[type=submit]').innerText()).toBe('Submit');
    await page.keyboard.press('Enter');

    await page.locator('.ending').waitFor();
    expect(await page.locator('.ending').getAttribute('data-ending')).toBe('tys_pro');
    // Recall of an earlier answer in the ending's title.
    expect(await page.locator('.ending h1').innerText()).toBe('Welcome aboard, Ada!');
    await page.screenshot({ path: artifact('respondent-page-ending.png') });

    // Stored in the EU, where bob's responses live; the US holds nothing of it.
    const eu = await responsesOf(bob, surveyId, 'eu');
    expect(eu.items).toHaveLength(1);
    const response = eu.items[0];
    expect(response.hidden).toEqual({ source: 'ads' });
    expect(response.calculated).toEqual({ score: 10 });
    expect(response.answers.map((a: { field: { ref: string } }) => a.field.ref)).toEqual([
      'name',
      'plan',
      'seats',
      'email',
      'start',
      'happy',
      'newsletter',
      'terms',
    ]);
    expect(response.answers[2]).toMatchObject({ type: 'number', number: 12 });
    expect(response.answers[4]).toMatchObject({ type: 'date', date: '2027-01-15' });
    expect((await responsesOf(bob, surveyId, 'us')).items).toHaveLength(0);
    const [delivery] = await receiver.until('/survey', (requests) => requests.length >= 1);
    expect(JSON.parse(delivery.body).form_response).toMatchObject({
      token: response.token,
      hidden: { source: 'ads' },
      ending: { ref: 'tys_pro' },
    });
    // No third party: the address opened and the form's region, nothing else.
    expect([...origins].sort()).toEqual([base('eu'), base('us')].sort());
    // Submitted: the saved progress is gone.
    expect(await page.evaluate(`localStorage.getItem('formline:${surveyId}')`)).toBeNull();
  });

  it('works with the keyboard alone on a phone-sized screen, keeps answers across a reload, and follows the other path', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${base('eu')}/to/${surveyId}`);
    expect(await focusedId(page)).toBe('');
    await page.keyboard.press('Enter'); // the welcome screen's button has the focus
    expect(await question(page)).toContain('Your name?');
    expect(await focusedId(page)).toMatch(/-input$/); // focus is on the answer, labelled by the question
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alert').innerText()).toBe('Please fill this in');
    await page.keyboard.type('Bo');
    await page.keyboard.press('Enter');
    // The question's picture, in its phone size.
    const phonePicture = await shownPicture(page, 'img[alt="The plans side by side"]');
    expect(phonePicture.src).toMatch(/\/image\/mobile$/);
    expectTestImageColour(phonePicture.colour);
    await page.keyboard.press('a'); // key hint A: Basic
    await page.keyboard.press('Enter');
    // Logic: basic skips the seats.
    expect(await question(page)).toContain('Work email?');
    await page.keyboard.type('bo@example');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alert').innerText()).toContain('email address');
    await page.screenshot({ path: artifact('respondent-page-phone-error.png') });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

    // autosave_progress: a reload comes back to the same question, earlier answers kept.
    await page.reload();
    expect(await question(page)).toContain('Work email?');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await page.locator('input[type=email]').focus();
    await page.keyboard.type('bo@example.com');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter'); // the date is optional
    await page.keyboard.press('Enter'); // so is the rating
    await page.keyboard.press('n');
    await page.keyboard.press('Enter');
    await page.keyboard.press('b'); // "I don't accept" on a required legal question
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alert').innerText()).toBe('Please accept to continue');
    await page.keyboard.press('a');
    await page.keyboard.press('Enter');

    await page.locator('.ending').waitFor();
    expect(await page.locator('.ending').getAttribute('data-ending')).toBe('tys_basic');
    await page.screenshot({ path: artifact('respondent-page-phone-ending.png') });
    const eu = await responsesOf(bob, surveyId, 'eu');
    const latest = eu.items[0];
    expect(latest.answers.map((a: { field: { ref: string } }) => a.field.ref)).toEqual([
      'name',
      'plan',
      'email',
      'newsletter',
      'terms',
    ]);
    expect(latest.ending).toMatchObject({ ref: 'tys_basic' });
  });

  it('counts a submission once when the browser retries it', async () => {
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'One question',
        welcome_screens: [{ title: 'Hello' }],
        fields: [{ ref: 'q', title: 'Anything?', type: 'short_text' }],
        settings: { show_number_of_submissions: true },
      },
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    let attempts = 0;
    // The first POST reaches the server and is stored, but its answer is lost on the way back.
    await page.route('**/submissions', async (route) => {
      attempts += 1;
      if (attempts === 1) {
        await route.fetch();
        await route.abort('failed');
      } else await route.continue();
    });
    const display = `${base('us')}/to/${form.body.id}`;
    await page.goto(display);
    expect(await page.locator('.welcome .facts').innerText()).toBe('0 people have filled this out');
    await page.keyboard.press('Enter');
    await page.keyboard.type('once');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('.ending').waitFor();
    expect(attempts).toBe(2);
    expect((await responsesOf(alice, form.body.id, 'us')).items).toHaveLength(1);
    // The welcome screen counts it, on either region's address (the EU's sends
    // the browser to the US page, where the responses are).
    await page.goto(display);
    expect(await page.locator('.welcome .facts').innerText()).toBe('1 people have filled this out');
    await page.goto(`${base('eu')}/to/${form.body.id}`);
    expect(page.url()).toBe(display);
    expect(await page.locator('.welcome h1').innerText()).toBe('Hello');
    expect(await page.locator('.welcome .facts').innerText()).toBe('1 people have filled this out');
  });

  it('keeps nothing in the browser when the form does not autosave, and ends on the redirect the ending names', async () => {
    // The redirect recalls a hidden field and an answer, encoded for an address.
    const target = (source: string, second: string) =>
      `${base('us')}/to/nosuchform?from=ending&source=${source}&second=${second}`;
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'No traces',
        hidden: ['source'],
        settings: { autosave_progress: false },
        fields: [
          { ref: 'first', title: 'First?', type: 'short_text' },
          { ref: 'second', title: 'Second?', type: 'short_text' },
        ],
        thankyou_screens: [
          {
            ref: 'away',
            title: 'Off you go',
            type: 'url_redirect',
            properties: { redirect_url: target('{{hidden:source}}', '{{field:second}}') },
          },
        ],
      },
    });
    expect(form.status).toBe(201);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base('us')}/to/${form.body.id}?source=ads%20%26%20more`);
    await page.keyboard.type('one');
    await page.keyboard.press('Enter');
    expect(await question(page)).toContain('Second?');
    expect(await page.evaluate<number>('localStorage.length')).toBe(0);
    // A reload starts over: nothing was kept.
    await page.reload();
    expect(await question(page)).toContain('First?');
    await page.keyboard.type('again');
    await page.keyboard.press('Enter');
    await page.keyboard.type('two & three');
    await page.keyboard.press('Enter');
    await page.waitForURL(target('ads%20%26%20more', 'two%20%26%20three'));
    const [response] = (await responsesOf(alice, form.body.id, 'us')).items;
    expect(response.answers.map((a: { text: string }) => a.text)).toEqual(['again', 'two & three']);
    expect(response.ending).toMatchObject({ ref: 'away' });
  });

  it('may be framed by the sites its settings name and by no other; a form naming none, by its own origin only', async () => {
    // Two sites on this machine that frame whatever page their address names
    // (served for real: Chromium keeps public pages from framing local ones).
    const embedders = await Promise.all([0, 1].map(() => embeddingSite()));
    const [allowed, elsewhere] = embedders.map((site) => site.origin);
    try {
      const created = await callApi(`${base('us')}/forms`, {
        token: alice.token,
        method: 'POST',
        body: {
          title: 'Embedded',
          settings: { embed_origins: [allowed] },
          fields: [{ ref: 'name', title: 'Your name?', type: 'short_text' }],
        },
      });
      expect(created.status).toBe(201);
      expect(created.body.settings.embed_origins).toEqual([allowed]);
      // Read and written back as it is, as a client that keeps what it does not know would.
      const path = `/forms/${created.body.id}`;
      const read = await callApi(`${base('us')}${path}`, { token: alice.token });
      const written = await callApi(`${base('us')}${path}`, {
        token: alice.token,
        method: 'PUT',
        body: read.body,
      });
      expect(written.status).toBe(200);
      expect(written.body.settings.embed_origins).toEqual([allowed]);

      const pageUrl = `${base('us')}/to/${created.body.id}`;
      const policy = (await fetch(pageUrl)).headers.get('content-security-policy');
      expect(policy).toMatch(new RegExp(`frame-ancestors 'self' ${allowed}$`));
      const plain = (await fetch(`${base('eu')}/to/${surveyId}`)).headers.get('content-security-policy');
      expect(plain).toMatch(/frame-ancestors 'self'$/);

      const context = await browser.newContext();
      const page = await context.newPage();
      // The questions the frame shows once loaded: none when the browser refused it.
      const framedBy = async (site: string): Promise<number> => {
        await page.goto(`${site}/?page=${encodeURIComponent(pageUrl)}`);
        await page.waitForFunction("document.title === 'loaded'");
        const frame = await (await page.waitForSelector('iframe')).contentFrame();
        return frame!.locator('main#app h1').count();
      };
      expect(await framedBy(allowed)).toBeGreaterThan(0);
      expect(await framedBy(elsewhere)).toBe(0);
      await context.close();
    } finally {
      for (const site of embedders) site.server.close();
    }
  });

  it('shows caller data as text, in the form language, and hides private forms', async () => {
    const hostile = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">';
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: hostile,
        settings: { language: 'es', meta: { title: `Meta ${hostile}` } },
        fields: [
          {
            ref: 'pick',
            title: hostile,
            type: 'multiple_choice',
            properties: { choices: [{ label: '<b>bold</b>' }, { label: '"quoted" & <i>' }] },
          },
        ],
      },
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${base('us')}/to/${form.body.id}`);
    expect(await page.title()).toBe(`Meta ${hostile}`);
    expect(await page.locator('form.block h1').innerText()).toContain(hostile);
    expect(await page.getByText('<b>bold</b>').count()).toBe(1);
    expect(await page.locator('img, b, i').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(dialogs).toEqual([]);
    // The page's own words in Spanish.
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('form.block button[type=submit]').innerText()).toBe('Enviar');

    // Revalidation: the same page answers 304 to its ETag.
    const first = await fetch(`${base('us')}/to/${form.body.id}`);
    const again = await fetch(`${base('us')}/to/${form.body.id}`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);

    // The page's script and icon (from apps/respondent-web's build): named
    // after their content, kept for a year; another name finds nothing.
    const script = await page.locator('script[src]').getAttribute('src');
    const icon = await page.locator('link[rel=icon]').getAttribute('href');
    expect([script, icon]).toEqual([
      expect.stringMatching(/^\/to\/assets\/respondent-page\.[0-9a-f]{16}\.js$/),
      expect.stringMatching(/^\/to\/assets\/favicon\.[0-9a-f]{16}\.svg$/),
    ]);
    for (const [path, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [icon, 'image/svg+xml'],
    ]) {
      const asset = await fetch(`${base('us')}${path}`);
      expect([asset.status, asset.headers.get('content-type')]).toEqual([200, type]);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect((await fetch(`${base('us')}/to/assets/respondent-page.0000000000000000.js`)).status).toBe(404);

    // A private form answers as an unknown one: 404, telling nothing.
    await callApi(`${base('us')}/forms/${form.body.id}`, {
      token: alice.token,
      method: 'PATCH',
      body: [{ op: 'replace', path: '/settings/is_public', value: false }],
    });
    const hidden = await fetch(`${base('us')}/to/${form.body.id}`);
    const unknown = await fetch(`${base('us')}/to/nosuchform`);
    expect([hidden.status, unknown.status]).toEqual([404, 404]);
    // Checked again on every visit: the form may be made public at any time.
    expect(hidden.headers.get('cache-control')).toBe('no-cache');
    expect(await hidden.text()).toBe(await unknown.text());
  });
});

// A site on 127.0.0.1 whose page frames the address in its `page` query
// parameter, and says `loaded` in its title once the frame has loaded (or
// been refused).
async function embeddingSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const target = new URL(request.url ?? '/', 'http://site').searchParams.get('page') ?? '';
    const quoted = target.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<!doctype html><title>embedding</title><iframe src="${quoted}" onload="document.title='loaded'"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
