import type { BrowserContext, Page } from 'playwright-core';
import { signInToConsole } from './console.fixture';

// The builder's browser specs share these: a signed-in tab on a form's
// builder, and the few ways they read it.

export interface Person {
  email: string;
  password: string;
}

/** A new tab (its own sessionStorage, so its own sign-in) on the builder of `formId`. */
export async function openBuilder(
  browser: { newContext(options: { viewport: { width: number; height: number } }): Promise<BrowserContext> },
  base: string,
  person: Person,
  formId: string,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${base}/console`);
  await signInToConsole(page, person);
  await page.goto(`${base}/console#/forms/${formId}/edit`);
  await page.getByRole('heading', { level: 1, name: /^Edit “/ }).waitFor();
  return { context, page };
}

/** The id of the element that has the focus, for specs of where focus goes. */
export const focusedId = (page: Page) => page.evaluate<string>('document.activeElement?.id ?? ""');

/** The id of the focused element once it matches (the screen moves focus after it renders). */
export async function focusMovedTo(page: Page, expected: string | RegExp, timeoutMs = 2000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const id = await focusedId(page);
    if (typeof expected === 'string' ? id === expected : expected.test(id)) return id;
    if (Date.now() > deadline) throw new Error(`focus is on "${id}", not ${String(expected)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The builder's status line, once it says `text`. */
export const saveStatus = (page: Page, text: string | RegExp) =>
  page.locator('.save-bar [role="status"]').filter({ hasText: text });
