import type { Page } from 'playwright-core';

// From the console's sign-in screen (already open in `page`) through the
// region's real sign-in page, where the person allows the console, back to
// the console signed in, on its Forms screen.
export async function signInToConsole(
  page: Page,
  person: { email: string; password: string },
): Promise<void> {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/oauth\/authorize\?/);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in and allow' }).click();
  await page.getByRole('heading', { name: 'Forms', level: 1 }).waitFor();
}
