import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import type { Region } from '@formline/contracts';
import {
  callApi,
  type E2eFixtureOptions,
  testArtifactPath,
  testInfra,
  type TestAccount,
  type TestRegions,
} from '@formline/testing';

// What the respondent page's browser specs (respondent-page-*.e2e-spec.ts)
// share: their addresses and stored responses, where their screenshots go,
// and how they look at the page (its requests, its focus, its pictures and
// pixels). Each spec starts its own regions with useTestRegions, as few as it
// needs.

/**
 * What a spec of alice's forms alone starts: her US region's apps that serve
 * the page and take its answers and files, and the browser.
 */
export const alicesRegion = {
  regions: ['us'],
  apps: ['gateway', 'global', 'responses', 'media'],
  browser: true,
  accounts: { alice: 'us' },
} as const satisfies E2eFixtureOptions<{ alice: 'us' }>;

/** The regions' addresses, and the responses of a form as its owner reads them through the API. */
export function respondentPageRegions(regions: TestRegions) {
  const base = (region: Region) => regions.baseUrl(region);
  const responsesOf = async (account: TestAccount, formId: string, region: Region) =>
    (await callApi(`${base(region)}/forms/${formId}/responses`, { token: account.token })).body;
  return { base, responsesOf };
}

/** Where a screenshot goes: .data/test/artifacts/<name>. */
export const artifact = (name: string) => testArtifactPath(testInfra().dataDir, name);

// Every request the page makes, by origin: only the two base addresses may appear.
export const watchOrigins = (context: BrowserContext) => {
  const origins = new Set<string>();
  context.on('request', (request) => {
    if (!request.url().startsWith('data:')) origins.add(new URL(request.url()).origin);
  });
  return origins;
};

export const focusedId = (page: Page) => page.evaluate<string>("document.activeElement?.id ?? ''");

// A picture on the page: loaded (from where), its size as decoded, and the
// colour at its centre in a screenshot of the page (the test images are
// #336699 squares), so the screenshot is known to show it.
export const shownPicture = async (page: Page, selector: string) => {
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

export const expectTestImageColour = (colour: number[]) => {
  // #336699, give or take the screenshot's rounding.
  [0x33, 0x66, 0x99].forEach((channel, i) => expect(Math.abs(colour[i] - channel)).toBeLessThanOrEqual(3));
};

/** The title of the question on screen. */
export const question = (page: Page) => page.locator('form.block h1').innerText();

// The colour of one pixel of the page as shown.
export const pixelAt = async (page: Page, x: number, y: number) => {
  const shot = await page.screenshot({ clip: { x, y, width: 1, height: 1 } });
  return [...(await sharp(shot).removeAlpha().raw().toBuffer())];
};

export const near = (colour: number[], expected: number[]) =>
  expected.every((channel, i) => Math.abs(colour[i] - channel) <= 3);

export const boxOf = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

/** Waits until the picture is decoded (and so laid out at its size). */
export const decoded = (page: Page, selector: string) =>
  page.evaluate(`document.querySelector(${JSON.stringify(selector)}).decode()`);
