import type { Json } from './builder-form.mapper';

export type PreviewAddress =
  /** The form's page on the console's own origin, which may frame it. */
  | { framed: string }
  /** The page is served on the other region's address, which the console's origin cannot frame. */
  | { elsewhere: string; regionOrigin: string }
  | undefined;

/**
 * Where the builder previews the form. `_links.display` is on the default
 * region's address, which redirects to the page in the form's region (the
 * origin of `_links.responses`); only there may the console frame it, on
 * its own origin, under the page's `frame-ancestors 'self'`.
 */
export function previewOf(form: Json, consoleOrigin: string): PreviewAddress {
  const links = (typeof form._links === 'object' && form._links !== null ? form._links : {}) as Json;
  const display = typeof links.display === 'string' ? links.display : '';
  const responses = typeof links.responses === 'string' ? links.responses : '';
  if (!URL.canParse(display)) return undefined;
  const regionOrigin = URL.canParse(responses) ? new URL(responses).origin : new URL(display).origin;
  if (regionOrigin !== consoleOrigin) return { elsewhere: display, regionOrigin };
  const { pathname, search } = new URL(display);
  return { framed: `${consoleOrigin}${pathname}${search}` };
}
