import type { Page } from 'playwright-core';

// From the console's sign-in screen (already open in `page`) through the
// region's real sign-in page, where the person allows the console, back to
// the console signed in, on its Forms screen (its button and heading named in
// the console's language: English unless said).
export async function signInToConsole(
  page: Page,
  person: { email: string; password: string },
  words: { signIn: string; forms: string } = { signIn: 'Sign in', forms: 'Forms' },
): Promise<void> {
  await page.getByRole('button', { name: words.signIn }).click();
  await page.waitForURL(/\/oauth\/authorize\?/);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
  await page.getByRole('heading', { name: words.forms, level: 1 }).waitFor();
}
