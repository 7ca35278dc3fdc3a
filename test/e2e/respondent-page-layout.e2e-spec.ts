import { callApi, uploadTestImage, useTestRegions } from '@formline/testing';
import {
  alicesRegion,
  artifact,
  boxOf,
  decoded,
  focusedId,
  near,
  pixelAt,
  question,
  respondentPageRegions,
  watchOrigins,
} from './respondent-page.fixture';

// The respondent page in headless Chromium (as respondent-page-journey.e2e-spec.ts
// says): where pictures, videos and the theme's background go on the screen,
// and the form's language in the page's own words and in its direction.
describe('the respondent page in a browser: layouts and languages', () => {
  const { regions, browser, accounts } = useTestRegions(alicesRegion);
  const { alice } = accounts;
  const { base, responsesOf } = respondentPageRegions(regions);

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
});
