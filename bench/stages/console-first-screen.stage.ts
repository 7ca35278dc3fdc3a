import { launchHeadlessBrowser } from '@formline/testing';
import { figure } from '../lib/figures';
import { below, type Context, progress } from '../lib/bench-run';

// The owner's console's first screen on the local stack: a signed-in owner
// opening `/console` until the Forms screen lists the account's forms, in
// Debian's Chromium with a fresh profile each time (nothing cached), so it
// pays the page, the script, the style sheet and the API calls behind it
// (`/me`, `/workspaces`, `/forms`). The token is put where the console keeps
// its sign-in (the tab's sessionStorage): the sign-in page is the API's own,
// and is not the console's first screen.
const samples = 5;
const tokenKey = 'formline.console.token';

export async function consoleFirstScreen(c: Context): Promise<void> {
  progress(`console: first screen, signed in, fresh browser profile, ${samples} loads`);
  const browser = launchHeadlessBrowser();
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const context = await browser.newContext();
      await context.addInitScript(
        `sessionStorage.setItem(${JSON.stringify(tokenKey)}, ${JSON.stringify(c.token)});`,
      );
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${c.stack.baseUrl}/console`);
      // The list is there once the bench's own form is in it.
      await page.getByText('Bench deliveries').first().waitFor({ timeout: 30_000 });
      times.push(performance.now() - started);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  progress(`  loads: ${times.map((ms) => Math.round(ms)).join(', ')} ms`);
  c.figures.push(figure('console: first screen, signed in', 'ms', times, undefined, below(1000)));
}
