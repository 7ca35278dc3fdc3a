import type { Page } from 'playwright-core';
import { accessibilityFindings as audit, useTestRegions } from '@formline/testing';
import { signInToConsole } from './console.fixture';

// The console in the account's language, driven in headless Chromium: before
// signing in it speaks the browser's language, once signed in the one `GET
// /me` gives, with `<html lang>` (and `dir`) to match; Spanish on the Forms
// and Insights screens, Arabic laid out right to left and still usable, and
// English for a language it has no texts for. axe-core finds nothing.
describe("the console in the account's language", () => {
  const { regions, browser, accounts, createForm } = useTestRegions({
    apps: ['gateway', 'global', 'responses'],
    browser: true,
    accounts: {
      lucia: { region: 'us', password: 'lucia-console-password', language: 'es' },
      ada: { region: 'us', password: 'ada-console-password' },
      samira: { region: 'us', password: 'samira-console-password', language: 'ar' },
    },
  });
  const { lucia, ada, samira } = accounts;
  const base = () => regions.baseUrl('us');

  const opened = async (locale: string) => {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base()}/console`);
    return { context, page };
  };
  const language = (page: Page) =>
    page.evaluate<{ lang: string; dir: string }>(
      '({ lang: document.documentElement.lang, dir: document.documentElement.dir })',
    );

  it('speaks Spanish once signed in as an account whose language is Spanish', async () => {
    await createForm(lucia, { title: 'Encuesta de comida', fields: [] });
    const { context, page } = await opened('en-US');
    // Before signing in: the browser's language.
    await page.getByRole('heading', { name: 'Formline console', level: 1 }).waitFor();
    expect(await language(page)).toEqual({ lang: 'en', dir: 'ltr' });
    await signInToConsole(page, lucia, { signIn: 'Sign in', forms: 'Formularios' });
    expect(await language(page)).toEqual({ lang: 'es', dir: 'ltr' });
    expect(await page.title()).toBe('Consola de Formline');
    await page
      .getByRole('status')
      .filter({ hasText: /^2 formularios\.$/ })
      .waitFor();
    await page.getByRole('heading', { name: 'Todos los formularios', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Nuevo formulario' }).waitFor();
    await page.getByLabel('Buscar por título').waitFor();
    await page.getByRole('button', { name: 'Cerrar sesión' }).waitFor();
    const found = await audit(page, 'forms, es');

    await page.getByRole('link', { name: 'Estadísticas de Encuesta de comida' }).click();
    await page.getByRole('heading', { name: 'Estadísticas', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Abandonos por pregunta', level: 2 }).waitFor();
    await page.getByText('Este formulario no tiene preguntas.').waitFor();
    const rate = page.locator('dl.figures div').filter({ hasText: 'Tasa de finalización' }).locator('dd');
    await expect(rate.textContent()).resolves.toBe('0 %');
    found.push(...(await audit(page, 'insights, es')));

    // A form that is not there: the console's wrapper in Spanish, the API's words as they are.
    await page.goto(`${base()}/console#/forms/not-a-form/insights`);
    await expect(page.getByRole('alert').first().textContent()).resolves.toMatch(/\(\w+\)$/);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.getByText('Has cerrado la sesión.').waitFor();
    expect(found).toEqual([]);
    await context.close();
  });

  it("signs in in the browser's language, and speaks English for an English account", async () => {
    const { context, page } = await opened('es-ES');
    await page.getByRole('heading', { name: 'Consola de Formline', level: 1 }).waitFor();
    expect(await language(page)).toEqual({ lang: 'es', dir: 'ltr' });
    const found = await audit(page, 'sign-in, es');
    await signInToConsole(page, ada, { signIn: 'Iniciar sesión', forms: 'Forms' });
    expect(await language(page)).toEqual({ lang: 'en', dir: 'ltr' });
    expect(found).toEqual([]);
    await context.close();
  });

  it('lays Arabic out right to left, still usable', async () => {
    await createForm(samira, { title: 'استبيان', fields: [] });
    const { context, page } = await opened('en-US');
    await signInToConsole(page, samira, { signIn: 'Sign in', forms: 'النماذج' });
    expect(await language(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'استبيان' }) });
    // Right to left: the card's title starts at its right edge.
    const [cardBox, titleBox] = await Promise.all([
      card.boundingBox(),
      card.getByRole('heading', { name: 'استبيان' }).boundingBox(),
    ]);
    expect(cardBox && titleBox && cardBox.x + cardBox.width - (titleBox.x + titleBox.width)).toBeLessThan(40);
    const found = await audit(page, 'forms, ar');
    // Usable: the new-form panel opens, takes a title and creates the form.
    await page.getByRole('button', { name: 'نموذج جديد' }).click();
    // The panel gives its title box the focus once it has drawn: type then.
    await page.locator('input:focus').waitFor();
    await page.keyboard.type('نموذج ثان');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'نموذج ثان', level: 3 }).waitFor();
    found.push(...(await audit(page, 'forms created, ar')));
    expect(found).toEqual([]);
    await context.close();
  });
});
