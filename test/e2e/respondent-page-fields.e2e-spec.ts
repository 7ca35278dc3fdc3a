import { callApi, uploadTestImage, useTestRegions } from '@formline/testing';
import {
  alicesRegion,
  artifact,
  expectTestImageColour,
  question,
  respondentPageRegions,
  shownPicture,
  watchOrigins,
} from './respondent-page.fixture';

// The respondent page in headless Chromium (as respondent-page-journey.e2e-spec.ts
// says): each kind of question as the page renders it, and the answer stored.
describe('the respondent page in a browser: the kinds of question', () => {
  const { regions, browser, accounts } = useTestRegions(alicesRegion);
  const { alice } = accounts;
  const { base, responsesOf } = respondentPageRegions(regions);

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
});
