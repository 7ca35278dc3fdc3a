import { accessibilityViolations, callApi, uploadTestImage, useTestRegions } from '@formline/testing';
import { alicesRegion, respondentPageRegions } from './respondent-page.fixture';

// The respondent page in headless Chromium (as respondent-page-journey.e2e-spec.ts
// says), used without a mouse or eyes: the keyboard alone, what a screen
// reader is handed, and an axe-core audit of every screen.
describe('the respondent page in a browser: accessibility', () => {
  const { regions, browser, accounts } = useTestRegions(alicesRegion);
  const { alice } = accounts;
  const { base, responsesOf } = respondentPageRegions(regions);

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

  it('passes an accessibility audit (axe-core, serious and critical) on the welcome screen, every kind of question and the ending', async () => {
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
    const found: string[] = [];
    const audit = async (screen: string) => {
      const violations = await accessibilityViolations(page);
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
