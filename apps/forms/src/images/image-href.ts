import type { RegionBaseUrls } from '@formline/contracts';

// An image's address as the Images API gives it (`src`): `{base_url}/images/{id}`,
// on either region's base address, optionally naming a sized variant
// (`/image/default`, `/background/mobile`, `/choice/thumbnail`, ...).
// Anything else is not one of our images.
const imagePath = /^\/images\/([A-Za-z0-9]{1,64})(?:\/(?:image|background|choice)\/[a-z]{1,20})?\/?$/;

export function imageIdFromHref(href: string, baseUrls: RegionBaseUrls): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.search || url.hash) return undefined;
  for (const base of [baseUrls.us, baseUrls.eu]) {
    const root = new URL(base);
    const basePath = root.pathname.endsWith('/') ? root.pathname.slice(0, -1) : root.pathname;
    if (url.origin !== root.origin || !url.pathname.startsWith(`${basePath}/images/`)) continue;
    return imagePath.exec(url.pathname.slice(basePath.length))?.[1];
  }
  return undefined;
}

export function imageSrc(baseUrls: RegionBaseUrls, imageId: string): string {
  return `${baseUrls.us}/images/${imageId}`;
}
