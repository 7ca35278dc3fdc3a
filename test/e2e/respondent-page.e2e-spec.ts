import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import {
  callApi,
  testArtifactPath,
  testInfra,
  type TestAccount,
  uploadTestImage,
  useTestRegions,
} from '@formline/testing';

// The respondent's page (`_links.display`), driven in headless Chromium as a
// respondent would: keyboard, mouse, a phone-sized screen. Its submissions go
// through the public endpoint to the form's region, the webhook fires, and the
// ending shown is the one the form's logic chose. Screenshots land in
// .data/test/artifacts/.
describe('the respondent page in a browser', () => {
  const { regions, browser, receiver, accounts } = useTestRegions({
    browser: true,
    receiver: true,
    accounts: { alice: 'us', bob: 'eu' },
  });
  const { alice, bob } = accounts;
  let surveyId: string; // bob's, with logic and a hidden field

  const base = (region: 'us' | 'eu') => regions.baseUrl(region);
  const artifact = (name: string) => testArtifactPath(testInfra().dataDir, name);

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

  const responsesOf = async (account: TestAccount, formId: string, region: 'us' | 'eu') =>
    (await callApi(`${base(region)}/forms/${formId}/responses`, { token: account.token })).body;

  // Every request the page makes, by origin: only the two base addresses may appear.
  const watchOrigins = (context: BrowserContext) => {
    const origins = new Set<string>();
    context.on('request', (request) => {
      if (!request.url().startsWith('data:')) origins.add(new URL(request.url()).origin);
    });
    return origins;
  };

  const focusedId = (page: Page) => page.evaluate<string>("document.activeElement?.id ?? ''");

  // A picture on the page: loaded (from where), its size as decoded, and the
  // colour at its centre in a screenshot of the page (the test images are
  // #336699 squares), so the screenshot is known to show it.
  const shownPicture = async (page: Page, selector: string) => {
    const [src, naturalWidth] = await page.evaluate<[string, number]>(
      `(async () => {
        const img = document.querySelector(${JSON.stringify(selector)});
        await img.decode();
        return [img.currentSrc, img.naturalWidth];
      })()`,
    );
    // Where it is once the screen has risen into place (its entrance animation done).
    await page.evaluate('Promise.all(document.getAnimations().map((animation) => animation.finished))');
    const box = (await page.locator(selector).boundingBox())!;
    const shot = await page.screenshot();
    const pixel = await sharp(shot)
      .extract({
        left: Math.round(box.x + box.width / 2),
        top: Math.round(box.y + box.height / 2),
        width: 1,
        height: 1,
      })
      .removeAlpha()
      .raw()
      .toBuffer();
    return { src, naturalWidth, colour: [...pixel] };
  };
  const expectTestImageColour = (colour: number[]) => {
    // #336699, give or take the screenshot's rounding.
    [0x33, 0x66, 0x99].forEach((channel, i) => expect(Math.abs(colour[i] - channel)).toBeLessThanOrEqual(3));
  };
  const question = (page: Page) => page.locator('form.block h1').innerText();

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

  it('renders the other field types and stores what they answer', async () => {
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'Every kind',
        settings: {
          progress_bar: 'proportion',
          show_question_number: false,
          show_key_hint_on_choices: false,
        },
        fields: [
          {
            ref: 'intro',
            title: 'Some context first',
            type: 'statement',
            properties: { button_text: 'Got it' },
          },
          {
            ref: 'about',
            title: 'About you',
            type: 'group',
            properties: {
              fields: [
                { ref: 'bio', title: 'Tell us more', type: 'long_text', validations: { max_length: 200 } },
                {
                  ref: 'country',
                  title: 'Country?',
                  type: 'dropdown',
                  properties: {
                    choices: [
                      { ref: 'fr', label: 'France' },
                      { ref: 'de', label: 'Germany' },
                    ],
                  },
                },
              ],
            },
          },
          {
            ref: 'nps',
            title: 'Would you recommend us?',
            type: 'opinion_scale',
            properties: { steps: 11, labels: { left: 'Never', right: 'Surely' } },
          },
          { ref: 'phone', title: 'Phone?', type: 'phone_number' },
          { ref: 'site', title: 'Website?', type: 'website' },
          {
            ref: 'tools',
            title: 'Which tools?',
            type: 'multiple_choice',
            properties: {
              allow_multiple_selection: true,
              allow_other_choice: true,
              choices: [
                { ref: 'a', label: 'Alpha' },
                { ref: 'b', label: 'Beta' },
              ],
            },
            validations: { max_selection: 2 },
          },
        ],
      },
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base('us')}/to/${form.body.id}`);
    expect(await page.locator('.number').count()).toBe(0);
    await page.getByRole('button', { name: 'Got it' }).click();
    expect(await question(page)).toContain('About you');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox').fill('Line one');
    await page.keyboard.press('Shift+Enter'); // a new line, not the next question
    await page.keyboard.type('line two');
    await page.keyboard.press('Enter');
    await page.getByRole('combobox').selectOption('de');
    await page.getByRole('button', { name: 'OK' }).click();
    expect(await page.locator('.scale-labels').innerText()).toContain('Never');
    expect(await page.locator('.progress-label').innerText()).toBe('2 of 6 answered');
    await page.keyboard.press('9');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox').fill('+33 6 12 34 56 78');
    await page.keyboard.press('Enter');
    await page.getByRole('textbox').fill('https://example.org');
    await page.keyboard.press('Enter');
    await page.getByText('Alpha').click();
    await page.getByText('Beta').click();
    await page.getByPlaceholder('Other').fill('Gamma');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alert').innerText()).toBe('Choose at most 2');
    await page.getByText('Beta').click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.ending').waitFor();

    const [response] = (await responsesOf(alice, form.body.id, 'us')).items;
    const byRef = Object.fromEntries(
      response.answers.map((a: { field: { ref: string } }) => [a.field.ref, a] as const),
    );
    expect(byRef.bio).toMatchObject({ type: 'text', text: 'Line one\nline two' });
    expect(byRef.country).toMatchObject({ type: 'choice', choice: { ref: 'de', label: 'Germany' } });
    expect(byRef.nps).toMatchObject({ type: 'number', number: 9 });
    expect(byRef.phone).toMatchObject({ type: 'phone_number', phone_number: '+33612345678' });
    expect(byRef.site).toMatchObject({ type: 'url', url: 'https://example.org' });
    expect(byRef.tools).toMatchObject({ type: 'choices', choices: { refs: ['a'], other: 'Gamma' } });
  });

  it("renders Typeform's newer field types accessibly, in the form's own messages, and stores their answers", async () => {
    const cat = await uploadTestImage(base('us'), alice.token, 'cat.png');
    const dog = await uploadTestImage(base('us'), alice.token, 'dog.png');
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'Newer kinds',
        variables: { score: 0, price: 25 },
        fields: [
          {
            ref: 'mascot',
            title: 'Pick a mascot',
            type: 'picture_choice',
            properties: {
              choices: [
                {
                  ref: 'cat',
                  label: 'Cat',
                  attachment: { type: 'image', href: cat },
                },
                {
                  ref: 'dog',
                  label: 'Dog',
                  attachment: { type: 'image', href: dog },
                },
              ],
            },
          },
          {
            ref: 'promoter',
            title: 'Would you recommend us?',
            type: 'nps',
            attachment: { type: 'image', href: cat, properties: { description: 'Our cat, smiling' } },
            validations: { required: true },
          },
          {
            ref: 'order',
            title: 'Rank these',
            type: 'ranking',
            properties: {
              choices: [
                { ref: 'speed', label: 'Speed' },
                { ref: 'price', label: 'Price' },
                { ref: 'support', label: 'Support' },
              ],
            },
          },
          {
            ref: 'grid',
            title: 'How do you feel about',
            type: 'matrix',
            properties: {
              fields: ['Docs', 'Support'].map((row) => ({
                ref: `grid_${row.toLowerCase()}`,
                title: row,
                type: 'multiple_choice',
                properties: {
                  choices: [
                    { ref: `grid_${row.toLowerCase()}_bad`, label: 'Bad' },
                    { ref: `grid_${row.toLowerCase()}_good`, label: 'Good' },
                  ],
                },
              })),
            },
          },
          {
            ref: 'contact',
            title: 'Your details',
            type: 'contact_info',
            properties: {
              fields: [
                {
                  ref: 'first',
                  title: 'First name',
                  type: 'short_text',
                  properties: { subfield_key: 'first_name' },
                  validations: { required: true },
                },
                { ref: 'mail', title: 'Email', type: 'email', properties: { subfield_key: 'email' } },
              ],
            },
          },
          { ref: 'where', title: 'Your address', type: 'address' },
          { ref: 'upload', title: 'Your logo', type: 'file_upload' },
          { ref: 'deposit', title: 'The deposit', type: 'payment', properties: { currency: 'EUR' } },
          { ref: 'call', title: 'Book a call', type: 'calendly' },
        ],
      },
    });
    expect(form.status).toBe(201);
    const messages = await callApi(`${base('us')}/forms/${form.body.id}/messages`, {
      token: alice.token,
      method: 'PUT',
      body: { 'label.button.ok': 'Next one', 'label.error.required': 'This one is needed' },
    });
    expect(messages.status).toBe(204);
    const context = await browser.newContext();
    const origins = watchOrigins(context);
    const page = await context.newPage();
    await page.goto(`${base('us')}/to/${form.body.id}`);

    // picture_choice: a radio group named by the question, each choice its
    // picture (from the page's own origin, in the choice size) and its label.
    expect(await question(page)).toContain('Pick a mascot');
    const pictures = page.locator('.pictures img');
    expect(await pictures.count()).toBe(2);
    for (const [i, href] of [cat, dog].entries()) {
      const shown = await shownPicture(page, `.pictures label:nth-child(${i + 1}) img`);
      expect(shown.src).toBe(`${base('us')}${new URL(href).pathname}/choice/default`);
      expect(shown.naturalWidth).toBe(8);
      expectTestImageColour(shown.colour);
    }
    await page.screenshot({ path: artifact('respondent-page-pictures.png') });
    await page
      .getByRole('radiogroup', { name: /Pick a mascot/ })
      .getByRole('radio', { name: 'Dog' })
      .check();
    await page.getByRole('button', { name: 'Next one' }).click(); // the form's own message

    // nps: 0 to 10, required (in the form's own words), picked with a digit key;
    // the question's picture, named by its description.
    expect(await page.getByRole('radio').count()).toBe(11);
    expect(await page.getByRole('img', { name: 'Our cat, smiling' }).count()).toBe(1);
    const catPicture = await shownPicture(page, 'img[alt="Our cat, smiling"]');
    expect(catPicture.src).toBe(`${base('us')}${new URL(cat).pathname}/image/default`);
    expect(catPicture.naturalWidth).toBe(8);
    expectTestImageColour(catPicture.colour);
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alert').innerText()).toBe('This one is needed');
    await page.getByRole('radio', { name: '0', exact: true }).focus();
    await page.keyboard.press('8');
    await page.keyboard.press('Enter');

    // ranking: reordered with the buttons, by keyboard.
    expect(await question(page)).toContain('Rank these');
    await page.getByRole('button', { name: 'Move Support up' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter'); // Support is first now
    expect(await page.locator('.ranking li').allInnerTexts()).toEqual([
      expect.stringContaining('Support'),
      expect.stringContaining('Speed'),
      expect.stringContaining('Price'),
    ]);
    await page.getByRole('button', { name: 'Next one' }).click();

    // matrix: one radio group per row, each radio named by its row and column.
    expect(await page.getByRole('table').count()).toBe(1);
    await page.getByRole('radio', { name: 'Docs: Good' }).check();
    await page.getByRole('radio', { name: 'Support: Bad' }).check();
    await page.getByRole('button', { name: 'Next one' }).click();

    // contact_info: one labelled input per line; a required line is checked.
    await page.getByLabel('Email').fill('ann@example.com');
    await page.getByRole('button', { name: 'Next one' }).click();
    expect(await page.getByRole('alert').innerText()).toBe('This one is needed');
    await page.getByLabel('First name').fill('Ann');
    await page.getByRole('button', { name: 'Next one' }).click();

    // address: its default lines, labelled.
    await page.getByLabel('City/Town').fill('Lisbon');
    await page.getByLabel('Country').fill('Portugal');
    await page.getByRole('button', { name: 'Next one' }).click();

    // file_upload: a native file input (uploads are proven in file-uploads.e2e-spec); not required here.
    expect(await page.locator('input[type=file]').count()).toBe(1);
    await page.getByRole('button', { name: 'Next one' }).click();

    // payment: the amount (the form's price), the payer's name, no card asked.
    expect(await page.locator('.payment .amount').innerText()).toBe('Amount: 25.00 EUR');
    expect(await page.locator('input[autocomplete=cc-number]').count()).toBe(0);
    await page.getByRole('textbox').fill('Ann Payer');
    await page.getByRole('button', { name: 'Next one' }).click();

    // calendly: the booking's link.
    await page.getByRole('textbox').fill('https://calendly.com/scheduled_events/abc');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.ending').waitFor();

    const [response] = (await responsesOf(alice, form.body.id, 'us')).items;
    const byRef = Object.fromEntries(
      response.answers.map((a: { field: { ref: string } }) => [a.field.ref, a] as const),
    );
    expect(byRef.mascot).toMatchObject({ type: 'choice', choice: { ref: 'dog', label: 'Dog' } });
    expect(byRef.promoter).toMatchObject({ type: 'number', number: 8 });
    expect(byRef.order).toMatchObject({
      type: 'choices',
      choices: { refs: ['support', 'speed', 'price'], labels: ['Support', 'Speed', 'Price'] },
    });
    expect(byRef.grid_docs).toMatchObject({ type: 'choice', choice: { ref: 'grid_docs_good' } });
    expect(byRef.grid_support).toMatchObject({ type: 'choice', choice: { ref: 'grid_support_bad' } });
    expect(byRef.first).toMatchObject({ type: 'text', text: 'Ann' });
    expect(byRef.mail).toMatchObject({ type: 'email', email: 'ann@example.com' });
    expect(
      response.answers
        .filter((a: { field: { ref: string }; type: string }) => a.field.ref !== 'first' && a.type === 'text')
        .map((a: { text: string }) => a.text),
    ).toEqual(['Lisbon', 'Portugal']);
    // Recorded, never charged: no card (no last4), no charge tried (no success).
    expect(byRef.deposit).toMatchObject({ type: 'payment' });
    expect(byRef.deposit.payment).toEqual({ amount: '25.00', name: 'Ann Payer' });
    expect(byRef.call).toMatchObject({ type: 'url', url: 'https://calendly.com/scheduled_events/abc' });
    expect(byRef.upload).toBeUndefined();
    // Pictures included, everything came from the page's own origin.
    expect([...origins]).toEqual([base('us')]);
  });

  it('ranks with the keyboard alone: the focus follows the moved choice and never rests on a disabled button', async () => {
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'Priorities',
        fields: [
          {
            ref: 'priorities',
            title: 'Order these',
            type: 'ranking',
            properties: {
              choices: ['Speed', 'Price', 'Docs', 'Support'].map((label) => ({
                ref: label.toLowerCase(),
                label,
              })),
            },
          },
        ],
      },
    });
    expect(form.status).toBe(201);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base('us')}/to/${form.body.id}`);
    await page.locator('.ranking').waitFor();
    // What has the focus: its accessible name, and whether it is a disabled control.
    const focused = () =>
      page.evaluate<{ name: string; disabled: boolean }>(
        "({ name: document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '', disabled: document.activeElement?.disabled === true })",
      );
    const order = () => page.locator('.ranking li .option-text').allInnerTexts();
    const announced = () => page.locator('#live').innerText();

    // The first control that can act has the focus: the first choice's "down" (its "up" is disabled).
    expect(await focused()).toEqual({ name: 'Move Speed down', disabled: false });
    for (let presses = 0; presses < 10 && (await focused()).name !== 'Move Support up'; presses++)
      await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ name: 'Move Support up', disabled: false });

    // Up, up, up: the focus stays on Support's "up" while it can move, then on its "down".
    await page.keyboard.press('Enter');
    expect(await order()).toEqual(['Speed', 'Price', 'Support', 'Docs']);
    expect(await focused()).toEqual({ name: 'Move Support up', disabled: false });
    expect(await announced()).toBe('Support: 3 of 4');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    expect(await order()).toEqual(['Support', 'Speed', 'Price', 'Docs']);
    expect(await focused()).toEqual({ name: 'Move Support down', disabled: false });
    expect(await announced()).toBe('Support: 1 of 4');

    // Down to the bottom: at the end the focus moves to its "up".
    for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
    expect(await order()).toEqual(['Speed', 'Price', 'Docs', 'Support']);
    expect(await focused()).toEqual({ name: 'Move Support up', disabled: false });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    expect(await order()).toEqual(['Speed', 'Support', 'Price', 'Docs']);

    // Another choice, reached with Shift+Tab: Speed down one place.
    for (let presses = 0; presses < 10 && (await focused()).name !== 'Move Speed down'; presses++)
      await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    expect(await order()).toEqual(['Support', 'Speed', 'Price', 'Docs']);
    expect(await focused()).toEqual({ name: 'Move Speed down', disabled: false });

    // Tab on to the button and submit, still by keyboard.
    for (let presses = 0; presses < 10 && (await focused()).name !== 'Submit'; presses++)
      await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ name: 'Submit', disabled: false });
    await page.keyboard.press('Enter');
    await page.locator('.ending').waitFor();
    const [response] = (await responsesOf(alice, form.body.id, 'us')).items;
    expect(response.answers[0]).toMatchObject({
      type: 'choices',
      choices: { refs: ['support', 'speed', 'price', 'docs'] },
    });
  });

  it("speaks the form's language in its file upload, ranking and payment controls", async () => {
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'Bewerbung',
        settings: { language: 'de' },
        fields: [
          { ref: 'cv', title: 'Dein Lebenslauf', type: 'file_upload' },
          {
            ref: 'wishes',
            title: 'Was ist dir wichtig?',
            type: 'ranking',
            properties: { choices: [{ label: 'Gehalt' }, { label: 'Team' }] },
          },
          { ref: 'fee', title: 'Die Gebühr', type: 'payment', properties: { currency: 'EUR' } },
        ],
      },
    });
    expect(form.status).toBe(201);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base('us')}/to/${form.body.id}`);

    // The control reads the page's words; the browser's own button text (in
    // the browser's language) is not what is shown.
    const input = page.locator('input[type=file]');
    expect(await page.locator('.file-label').innerText()).toBe('Datei auswählen');
    expect(await page.evaluate("getComputedStyle(document.querySelector('input[type=file]')).opacity")).toBe(
      '0',
    );
    const status = page.locator('.file-status');
    // A file the server refuses as too large, then one it takes.
    await page.route('**/files/**', (route) =>
      route.fulfill({ status: 413, contentType: 'application/json', body: '{"code":"PAYLOAD_TOO_LARGE"}' }),
    );
    await input.setInputFiles({
      name: 'gross.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n'),
    });
    await page.getByText('Diese Datei ist zu groß. Wählen Sie eine kleinere.').waitFor();
    await page.unroute('**/files/**');
    await input.setInputFiles({
      name: 'cv.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n'),
    });
    await page.getByText('Hochgeladen: cv.pdf').waitFor();
    expect(await status.getAttribute('role')).toBe('status');
    await page.screenshot({ path: artifact('respondent-page-file-de.png') });
    await page.getByRole('button', { name: 'OK' }).click();

    expect(await question(page)).toContain('Was ist dir wichtig?');
    expect(await page.getByRole('button', { name: 'Gehalt nach unten' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Team nach oben' }).count()).toBe(1);
    await page.getByRole('button', { name: 'OK' }).click();

    expect(await question(page)).toContain('Die Gebühr');
    expect(await page.locator('.payment .amount').innerText()).toBe('Betrag: 0.00 EUR');
    // The payer's name: labelled by the question and the page's own words.
    expect(await page.getByRole('textbox', { name: 'Die Gebühr Name der zahlenden Person' }).count()).toBe(1);
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
  // The colour of one pixel of the page as shown.
  const pixelAt = async (page: Page, x: number, y: number) => {
    const shot = await page.screenshot({ clip: { x, y, width: 1, height: 1 } });
    return [...(await sharp(shot).removeAlpha().raw().toBuffer())];
  };
  const near = (colour: number[], expected: number[]) =>
    expected.every((channel, i) => Math.abs(colour[i] - channel) <= 3);
  const boxOf = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;
  const decoded = (page: Page, selector: string) =>
    page.evaluate(`document.querySelector(${JSON.stringify(selector)}).decode()`);

  it("places pictures as Typeform's layouts say, links videos to their site and asks Calendly's booking link, loading nothing from elsewhere", async () => {
    const pic = await uploadTestImage(base('us'), alice.token, 'layout.png');
    const image = (description: string) => ({ type: 'image', href: pic, properties: { description } });
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'Layouts',
        settings: { show_progress_bar: false },
        welcome_screens: [
          {
            ref: 'hello',
            title: 'Picture behind',
            layout: { type: 'wallpaper', attachment: image('Behind the welcome') },
          },
        ],
        fields: [
          {
            ref: 'beside',
            title: 'Split question',
            type: 'short_text',
            layout: { type: 'split', placement: 'right', attachment: image('Beside the question') },
          },
          {
            ref: 'floating',
            title: 'A question whose words flow beside its floating picture',
            type: 'short_text',
            layout: {
              type: 'float',
              placement: 'left',
              attachment: image('Floating'),
              viewport_overrides: { small: { type: 'wallpaper' } },
            },
          },
          {
            ref: 'clip',
            title: 'Seen the video?',
            type: 'yes_no',
            attachment: { type: 'video', href: 'https://www.youtube.com/embed/dQw4w9WgXcQ', scale: 0.8 },
          },
          {
            ref: 'clip_beside',
            title: 'And this one?',
            type: 'yes_no',
            layout: {
              type: 'split',
              placement: 'right',
              attachment: { type: 'video', href: 'https://player.vimeo.com/video/76979871' },
            },
          },
          {
            ref: 'call',
            title: 'Book a call',
            type: 'calendly',
            application: { iframe_url: 'https://calendly.com/acme/intro' },
          },
        ],
      },
    });
    expect(form.status).toBe(201);
    const context = await browser.newContext();
    const origins = watchOrigins(context);
    const page = await context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${base('us')}/to/${form.body.id}`);

    // Wallpaper: the picture fills the screen behind the welcome under a
    // light veil of the theme's background, and the welcome's words lie on a
    // panel of that background at the opacity that keeps them readable.
    await decoded(page, 'img[alt="Behind the welcome"]');
    expect(await boxOf(page, '.layout-picture')).toEqual({ x: 0, y: 0, width: 1280, height: 800 });
    const scrim = Number(
      await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--scrim')"),
    );
    expect(scrim).toBeGreaterThan(0.4);
    expect(scrim).toBeLessThanOrEqual(1);
    const veiled = [0x33, 0x66, 0x99].map((channel) => 255 * 0.2 + channel * 0.8);
    const corner = await pixelAt(page, 5, 5);
    expect({ corner, veiled: near(corner, veiled) }).toEqual({ corner, veiled: true });
    const panel = await boxOf(page, 'section.welcome');
    const onPanel = await pixelAt(page, panel.x + 6, panel.y + 6);
    const panelled = veiled.map((channel) => 255 * scrim + channel * (1 - scrim));
    expect({ onPanel, panelled: near(onPanel, panelled) }).toEqual({ onPanel, panelled: true });
    // The welcome's words are on top of it.
    const heading = await boxOf(page, '.welcome h1');
    expect(
      await page.evaluate(
        `document.querySelector('.welcome h1').contains(document.elementFromPoint(${heading.x + heading.width / 2}, ${heading.y + heading.height / 2}))`,
      ),
    ).toBe(true);
    await page.screenshot({ path: artifact('respondent-page-wallpaper.png') });
    await page.getByRole('button', { name: 'Start' }).click();

    // Split, placement right: the picture fills the right half, the question the left.
    await decoded(page, 'img[alt="Beside the question"]');
    expect(await boxOf(page, '.layout-picture')).toEqual({ x: 640, y: 0, width: 640, height: 800 });
    const title = await boxOf(page, 'form.block h1');
    expect(title.x + title.width).toBeLessThanOrEqual(640);
    expect(near(await pixelAt(page, 960, 400), [0x33, 0x66, 0x99])).toBe(true);
    await page.screenshot({ path: artifact('respondent-page-split.png') });
    await page.keyboard.type('beside');
    await page.keyboard.press('Enter');

    // Float, placement left: the question's words flow beside the picture.
    await decoded(page, 'img[alt="Floating"]');
    expect(await page.evaluate("getComputedStyle(document.querySelector('.layout-picture')).float")).toBe(
      'left',
    );
    const floating = await boxOf(page, '.layout-picture');
    const firstLine = await page.evaluate<{ left: number; top: number }>(
      "(() => { const range = document.createRange(); range.selectNodeContents(document.querySelector('form.block h1')); const [rect] = range.getClientRects(); return { left: rect.left, top: rect.top }; })()",
    );
    expect(firstLine.left).toBeGreaterThanOrEqual(floating.x + floating.width);
    expect(firstLine.top).toBeLessThan(floating.y + floating.height);
    await page.screenshot({ path: artifact('respondent-page-float.png') });
    await page.keyboard.type('floating');
    await page.keyboard.press('Enter');

    // A video: a link to its page on YouTube, in a new tab, sized by its scale; no player, no frame.
    const video = page.getByRole('link', { name: 'Watch the video on YouTube (opens in a new tab)' });
    expect(await video.getAttribute('href')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(await video.getAttribute('target')).toBe('_blank');
    expect(await video.getAttribute('rel')).toBe('noopener noreferrer');
    expect((await video.boundingBox())!.width).toBeCloseTo((await boxOf(page, 'form.block')).width * 0.8, 0);
    expect(await page.locator('iframe').count()).toBe(0);
    await page.screenshot({ path: artifact('respondent-page-video.png') });
    await page.keyboard.press('y');
    await page.keyboard.press('Enter');

    // A video a split layout places: its link fills the right half, the question the left.
    const beside = page.locator('.layout-picture').getByRole('link', {
      name: 'Watch the video on Vimeo (opens in a new tab)',
    });
    expect(await beside.getAttribute('href')).toBe('https://vimeo.com/76979871');
    expect(await boxOf(page, '.layout-picture')).toEqual({ x: 640, y: 0, width: 640, height: 800 });
    expect(await beside.boundingBox()).toEqual({ x: 640, y: 0, width: 640, height: 800 });
    expect(await page.locator('iframe').count()).toBe(0);
    await page.screenshot({ path: artifact('respondent-page-video-split.png') });
    await page.keyboard.press('n');
    await page.keyboard.press('Enter');

    // Calendly: its scheduler only as a link; the booking's link asked in a field labelled as such.
    const scheduler = page.getByRole('link', { name: 'Book a time (opens in a new tab)' });
    expect(await scheduler.getAttribute('href')).toBe('https://calendly.com/acme/intro');
    expect(await scheduler.getAttribute('target')).toBe('_blank');
    expect(await page.locator('label.line-label').innerText()).toBe('Link to your booking');
    const booking = page.getByRole('textbox', { name: 'Book a call Link to your booking' });
    expect(await booking.evaluate((input) => input.id)).toBe(await focusedId(page));
    const hintId = (await booking.getAttribute('aria-describedby'))!.split(' ')[0];
    expect(await page.locator(`#${hintId}`).innerText()).toBe(
      'Once you have booked, paste the link to your booking here.',
    );
    await booking.fill('https://calendly.com/scheduled_events/xyz');
    await page.keyboard.press('Enter');
    await page.locator('.ending').waitFor();
    const [response] = (await responsesOf(alice, form.body.id, 'us')).items;
    expect(response.answers.at(-1)).toMatchObject({
      type: 'url',
      url: 'https://calendly.com/scheduled_events/xyz',
    });
    expect([...origins]).toEqual([base('us')]);

    // On a phone: the wallpaper still behind, the split stacked above the
    // question, and the float as its small-viewport override says (wallpaper).
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const small = await phone.newPage();
    await small.emulateMedia({ reducedMotion: 'reduce' });
    await small.goto(`${base('us')}/to/${form.body.id}`);
    await decoded(small, 'img[alt="Behind the welcome"]');
    expect(await boxOf(small, '.layout-picture')).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    await small.getByRole('button', { name: 'Start' }).click();
    await decoded(small, 'img[alt="Beside the question"]');
    const stacked = await boxOf(small, '.layout-picture');
    expect(stacked.y + stacked.height).toBeLessThanOrEqual((await boxOf(small, 'form.block h1')).y);
    expect(stacked.width).toBeGreaterThan(300);
    await small.screenshot({ path: artifact('respondent-page-split-phone.png') });
    await small.getByRole('textbox').fill('beside');
    await small.keyboard.press('Enter');
    await decoded(small, 'img[alt="Floating"]');
    expect(await boxOf(small, '.layout-picture')).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    expect(await small.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  });

  it("shows the theme's background picture from the page's own origin, laid out and darkened as the theme says", async () => {
    const pic = await uploadTestImage(base('us'), alice.token, 'backdrop.png');
    const theme = await callApi(`${base('us')}/themes`, {
      token: alice.token,
      method: 'POST',
      body: {
        name: 'Backdrop',
        font: 'Karla',
        colors: { question: '#FFFFFF', answer: '#F5C518', button: '#F5C518', background: '#101820' },
        background: { href: pic, layout: 'fullscreen', brightness: -0.5 },
      },
    });
    expect(theme.status).toBe(201);
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'Backdrop',
        theme: { href: `${base('us')}/themes/${theme.body.id}` },
        fields: [{ ref: 'q', title: 'Anything?', type: 'short_text' }],
      },
    });
    expect(form.status).toBe(201);
    const context = await browser.newContext();
    const origins = watchOrigins(context);
    const page = await context.newPage();
    await page.goto(`${base('us')}/to/${form.body.id}`);
    const background = `${base('us')}${new URL(pic).pathname}/background/default`;
    await page.waitForFunction(
      `performance.getEntriesByType('resource').some((entry) => entry.name === ${JSON.stringify(background)})`,
    );
    // Fullscreen: it covers the page to its corners; brightness -0.5: half of it shows through black.
    const darkened = [0x33, 0x66, 0x99].map((channel) => channel / 2);
    let corner = await pixelAt(page, 3, 3);
    for (let tries = 0; tries < 20 && !near(corner, darkened); tries++) corner = await pixelAt(page, 3, 3);
    expect({ corner, near: near(corner, darkened) }).toEqual({ corner, near: true });
    await page.screenshot({ path: artifact('respondent-page-background.png') });
    expect([...origins]).toEqual([base('us')]);
  });

  it("speaks simplified Chinese for Typeform's `ch`, names it zh-Hans, and picks Yes and No with A and B", async () => {
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: '问卷',
        settings: { language: 'ch' },
        fields: [{ ref: 'ok', title: '满意吗？', type: 'yes_no', validations: { required: true } }],
      },
    });
    expect(form.status).toBe(201);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base('us')}/to/${form.body.id}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-Hans');
    expect(await page.locator('form.block button[type=submit]').innerText()).toBe('提交');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alert').innerText()).toBe('请填写此项');
    // 是 and 否 have no keys of their own: A and B pick them, as on a legal question.
    expect(await page.locator('.option .key').allInnerTexts()).toEqual(['A', 'B']);
    await page.getByRole('radio', { name: '是' }).focus();
    await page.keyboard.press('b');
    expect(await page.getByRole('radio', { name: '否' }).isChecked()).toBe(true);
  });

  it('lays an Arabic form out right to left, in Arabic, and submits it', async () => {
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'استبيان',
        settings: { language: 'ar' },
        fields: [
          { ref: 'name', title: 'ما اسمك؟', type: 'short_text', validations: { required: true } },
          {
            ref: 'colour',
            title: 'ما لونك المفضل؟',
            type: 'multiple_choice',
            properties: {
              choices: [
                { ref: 'red', label: 'أحمر' },
                { ref: 'blue', label: 'أزرق' },
              ],
            },
          },
        ],
      },
    });
    expect(form.status).toBe(201);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base('us')}/to/${form.body.id}`);
    expect([
      await page.locator('html').getAttribute('lang'),
      await page.locator('html').getAttribute('dir'),
    ]).toEqual(['ar', 'rtl']);
    // Lines start on the right: the question's OK button sits at the column's right edge.
    const column = await boxOf(page, 'main');
    const ok = await boxOf(page, 'form.block .actions button');
    expect(Math.abs(column.x + column.width - 20 - (ok.x + ok.width))).toBeLessThanOrEqual(2);
    expect(
      await page.evaluate<string>("getComputedStyle(document.querySelector('form.block h1')).textAlign"),
    ).toBe('start');
    expect(await page.locator('form.block .number').innerText()).toBe('1 ←');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('alert').innerText()).toBe('يُرجى ملء هذا الحقل');
    await page.getByRole('textbox').fill('ليلى');
    await page.keyboard.press('Enter');
    await page.getByRole('radio', { name: 'أزرق' }).check();
    // The buttons keep to the end of the line: bottom left, right to left.
    const navigation = await boxOf(page, '.navigation');
    expect(navigation.x).toBeLessThan(column.x);
    await page.screenshot({ path: artifact('respondent-page-arabic.png') });
    await page.locator('form.block button[type=submit]').click();
    await page.locator('.ending').waitFor();
    const stored = await responsesOf(alice, form.body.id, 'us');
    expect(
      stored.items[0].answers.map(
        (answer: { text?: string; choice?: { label: string } }) => answer.text ?? answer.choice?.label,
      ),
    ).toEqual(['ليلى', 'أزرق']);
  });

  // What a screen reader is handed: Chromium's accessibility tree for the
  // focused element (role, accessible name, description, states), as the
  // platform's accessibility API passes it to NVDA, JAWS, VoiceOver or Orca.
  // No screen reader runs here (none runs headless on this machine).
  it("hands a screen reader each question's name, description, required state and error, and moves its focus along", async () => {
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'Spoken',
        fields: [
          {
            ref: 'name',
            title: 'Your name?',
            type: 'short_text',
            properties: { description: 'As on your passport' },
            validations: { required: true },
          },
          {
            ref: 'colour',
            title: 'Favourite colour?',
            type: 'multiple_choice',
            properties: {
              choices: [
                { ref: 'red', label: 'Red' },
                { ref: 'blue', label: 'Blue' },
              ],
            },
          },
        ],
      },
    });
    expect(form.status).toBe(201);
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    interface AxValue {
      value?: unknown;
    }
    interface AxNode {
      role?: AxValue;
      name?: AxValue;
      description?: AxValue;
      properties?: { name: string; value: AxValue }[];
      ignored?: boolean;
    }
    // The focused element as the accessibility tree gives it, with its nearest named group.
    const spoken = async () => {
      const { result } = (await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' })) as {
        result: { objectId: string };
      };
      const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', {
        objectId: result.objectId,
        fetchRelatives: true,
      })) as { nodes: AxNode[] };
      const focused = nodes.find((node) =>
        node.properties?.some((p) => p.name === 'focused' && p.value.value),
      )!;
      const state = (name: string) => focused.properties?.find((p) => p.name === name)?.value.value;
      const group = nodes.find((node) => node.role?.value === 'radiogroup');
      return {
        role: focused.role?.value,
        name: focused.name?.value,
        description: focused.description?.value,
        required: state('required') ?? false,
        invalid: state('invalid') ?? 'false',
        group: group?.name?.value,
      };
    };
    await page.goto(`${base('us')}/to/${form.body.id}`);
    expect(await spoken()).toMatchObject({
      role: 'textbox',
      name: expect.stringContaining('Your name?') as unknown,
      description: expect.stringContaining('As on your passport') as unknown,
      required: true,
      invalid: 'false',
    });
    await page.keyboard.press('Enter');
    expect(await spoken()).toMatchObject({
      role: 'textbox',
      invalid: 'true',
      description: expect.stringContaining('Please fill this in') as unknown,
    });
    await page.keyboard.type('Ada');
    await page.keyboard.press('Enter');
    expect(await spoken()).toMatchObject({
      role: 'radio',
      name: 'Red',
      group: expect.stringContaining('Favourite colour?') as unknown,
    });
  });

  it('records a video answer with the camera (a fake one here) and stores it with the response', async () => {
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: { title: 'On camera', fields: [{ ref: 'hello', title: 'Say hello', type: 'multi_format' }] },
    });
    expect(form.status).toBe(201);
    const context = await browser.newContext({ fakeMedia: true });
    const page = await context.newPage();
    await page.goto(`${base('us')}/to/${form.body.id}`);
    await page.getByRole('button', { name: 'Record a video' }).click();
    await page.getByRole('status').filter({ hasText: 'Recording…' }).waitFor();
    await page.waitForTimeout(1000);
    // Submitting while recording stops the recording and waits for it: the camera goes off, the clip goes up.
    await page.getByRole('button', { name: 'Submit' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Uploaded: video-recording\.webm$/ })
      .waitFor();
    expect(await page.locator('.ending').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Record a video' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.ending').waitFor();
    await context.close();
    const [response] = (await responsesOf(alice, form.body.id, 'us')).items;
    const recording = response.answers[0].multi_format as { format: string; file_url: string };
    expect(recording.format).toBe('video');
    const got = await fetch(recording.file_url, { headers: { authorization: `bearer ${alice.token}` } });
    expect(got.status).toBe(200);
    const bytes = Buffer.from(await got.arrayBuffer());
    // A WebM file, with video in it: its EBML header, and the VP8 or VP9 codec named.
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    expect(/V_VP[89]/.test(bytes.subarray(0, 4096).toString('latin1'))).toBe(true);
  });

  it('passes an accessibility audit (axe-core, serious and critical) on the welcome screen, every kind of question and the ending', async () => {
    const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    const pic = await uploadTestImage(base('us'), alice.token, 'audit.png');
    const choices = (...labels: string[]) =>
      labels.map((label) => ({ ref: label.toLowerCase().replace(/\W/g, '_'), label }));
    const form = await callApi(`${base('us')}/forms`, {
      token: alice.token,
      method: 'POST',
      body: {
        title: 'Audit',
        variables: { score: 0, price: 10 },
        settings: { show_time_to_complete: true },
        welcome_screens: [
          { title: 'Welcome to the audit', properties: { description: 'Every kind of question, checked.' } },
        ],
        fields: [
          { ref: 'name', title: 'Your name?', type: 'short_text', validations: { required: true } },
          { ref: 'story', title: 'Your story?', type: 'long_text' },
          { ref: 'mail', title: 'Email?', type: 'email' },
          { ref: 'count', title: 'How many?', type: 'number' },
          { ref: 'day', title: 'Which day?', type: 'date' },
          { ref: 'tel', title: 'Phone?', type: 'phone_number' },
          { ref: 'site', title: 'Website?', type: 'website' },
          {
            ref: 'tools',
            title: 'Which tools?',
            type: 'multiple_choice',
            properties: {
              allow_multiple_selection: true,
              allow_other_choice: true,
              choices: choices('Alpha', 'Beta'),
            },
            validations: { required: true },
          },
          {
            ref: 'pet',
            title: 'Which pet?',
            type: 'picture_choice',
            properties: {
              choices: [
                { ref: 'cat', label: 'Cat', attachment: { type: 'image', href: pic } },
                { ref: 'dog', label: 'Dog', attachment: { type: 'image', href: pic } },
              ],
            },
          },
          {
            ref: 'land',
            title: 'Country?',
            type: 'dropdown',
            properties: { choices: choices('France', 'Peru') },
          },
          { ref: 'ok', title: 'Happy?', type: 'yes_no' },
          { ref: 'terms', title: 'Terms?', type: 'legal' },
          { ref: 'stars', title: 'Stars?', type: 'rating' },
          {
            ref: 'scale',
            title: 'How likely?',
            type: 'opinion_scale',
            properties: { labels: { left: 'Not at all', right: 'Very' } },
          },
          { ref: 'nps', title: 'Recommend us?', type: 'nps' },
          {
            ref: 'order',
            title: 'Rank these',
            type: 'ranking',
            properties: { choices: choices('Speed', 'Price') },
            validations: { required: true },
          },
          {
            ref: 'grid',
            title: 'Rate these',
            type: 'matrix',
            properties: {
              fields: ['Docs', 'Support'].map((row) => ({
                ref: `grid_${row.toLowerCase()}`,
                title: row,
                type: 'multiple_choice',
                properties: {
                  choices: ['Bad', 'Good'].map((label) => ({ ref: `${row}_${label}`.toLowerCase(), label })),
                },
              })),
            },
          },
          { ref: 'contact', title: 'Your details', type: 'contact_info' },
          { ref: 'where', title: 'Your address', type: 'address' },
          { ref: 'logo', title: 'Your logo', type: 'file_upload' },
          { ref: 'fee', title: 'The fee', type: 'payment', properties: { currency: 'EUR' } },
          { ref: 'call', title: 'Book a call', type: 'calendly' },
          {
            ref: 'aside',
            title: 'A word in passing',
            type: 'statement',
            layout: {
              type: 'split',
              attachment: { type: 'image', href: pic, properties: { description: 'A picture' } },
            },
          },
        ],
        thankyou_screens: [
          { ref: 'done', title: 'All done', properties: { show_button: true, button_text: 'Once more' } },
        ],
      },
    });
    expect({ status: form.status, body: form.status === 201 ? undefined : form.body }).toEqual({
      status: 201,
      body: undefined,
    });
    const refs: string[] = form.body.fields.map((field: { ref: string }) => field.ref);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${base('us')}/to/${form.body.id}`);
    await page.evaluate(axeSource);
    const found: string[] = [];
    const audit = async (screen: string) => {
      const violations = await page.evaluate<
        Array<{ id: string; impact: string | null; help: string; nodes: string[] }>
      >(
        "axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((node) => node.target.join(' ')) })))",
      );
      for (const violation of violations)
        if (violation.impact === 'serious' || violation.impact === 'critical')
          found.push(`${screen}: ${violation.id} (${violation.help}) at ${violation.nodes.join(', ')}`);
    };

    await audit('welcome');
    await page.getByRole('button', { name: 'Start' }).click();
    for (const [i, ref] of refs.entries()) {
      await page.locator(`form.block[data-ref="${ref}"]`).waitFor();
      await audit(ref);
      if (ref === 'name') {
        await page.keyboard.press('Enter'); // required: the error shows, and is audited too
        await page.getByRole('alert').filter({ hasText: 'Please fill this in' }).waitFor();
        await audit('name, with its error');
        await page.keyboard.type('Ada');
      }
      if (ref === 'tools') await page.getByText('Alpha').click();
      if (ref === 'order') await page.getByRole('button', { name: 'Move Price up' }).click();
      await page.locator('form.block button[type=submit]').click();
      if (i < refs.length - 1) await page.locator(`form.block[data-ref="${refs[i + 1]}"]`).waitFor();
    }
    await page.locator('.ending').waitFor();
    await audit('ending');
    expect(found).toEqual([]);
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
