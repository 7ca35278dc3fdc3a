import type { FormDefinition } from './form-definition';

// An image's address as the Images API gives it (`src`): `{base_url}/images/{id}`,
// on either region's base address, optionally naming a sized variant
// (`/image/default`, `/background/mobile`, `/choice/thumbnail`, ...).
// Anything else is not one of our images. Shared by the global service (a form
// may show only its account's images) and the respondent's page (which shows
// them from its own origin).
const imagePath = /^\/images\/([A-Za-z0-9]{1,64})(?:\/(?:image|background|choice)\/[a-z]{1,20})?\/?$/;

export function imageIdFromHref(
  href: string,
  baseUrls: { readonly [region: string]: string },
): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.search || url.hash) return undefined;
  for (const base of Object.values(baseUrls)) {
    const root = new URL(base);
    const basePath = root.pathname.endsWith('/') ? root.pathname.slice(0, -1) : root.pathname;
    if (url.origin !== root.origin || !url.pathname.startsWith(`${basePath}/images/`)) continue;
    return imagePath.exec(url.pathname.slice(basePath.length))?.[1];
  }
  return undefined;
}

// Where the form names an image: each `attachment` of type image (wherever the
// model has one) and `cui_settings.avatar`, with its path in the body.
export function imageReferences(definition: FormDefinition): Array<{ path: string; href: string }> {
  const found: Array<{ path: string; href: string }> = [];
  const visit = (value: unknown, path: string, depth: number) => {
    if (depth > 16 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, `${path}[${i}]`, depth + 1));
      return;
    }
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      const at = path ? `${path}.${key}` : key;
      if (key === 'attachment' && isImageAttachment(child))
        found.push({ path: `${at}.href`, href: child.href });
      visit(child, at, depth + 1);
    }
  };
  visit(definition, '', 0);
  const avatar = definition.cui_settings.avatar;
  if (typeof avatar === 'string') found.push({ path: 'cui_settings.avatar', href: avatar });
  return found;
}

function isImageAttachment(value: unknown): value is { type: 'image'; href: string } {
  if (value === null || typeof value !== 'object') return false;
  const attachment = value as { type?: unknown; href?: unknown };
  return attachment.type === 'image' && typeof attachment.href === 'string';
}
