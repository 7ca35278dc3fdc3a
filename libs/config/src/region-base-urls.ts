import type { RegionBaseUrls } from '@formline/contracts';

// The public base address of every region, from the two configured addresses.
export function regionBaseUrls(config: { BASE_URL: string; EU_BASE_URL: string }): RegionBaseUrls {
  return { us: trimSlash(config.BASE_URL), eu: trimSlash(config.EU_BASE_URL) };
}

function trimSlash(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
