import type { Field } from '@formline/form-definition';

// The pictures of a form on its page: field and screen attachments and the
// images of picture choices. A form may name only its account's images
// (the global service checks), on either region's address; the server hands
// the page each one's path on the page's own origin, so every picture comes
// from the Images API beside the page (`img-src 'self'`), in the size its
// place needs, a smaller one on phones. An address the server did not hand
// over is never loaded.

export type ImagePaths = Record<string, string>;
type Attachment = NonNullable<Field['attachment']>;

const phone = '(max-width: 600px)';

// Typeform's sized variants (GET /images/{id}/{kind}/{size}): the wide one and the phone one.
const variants = {
  attachment: ['image/default', 'image/mobile'],
  choice: ['choice/default', 'choice/thumbnail'],
  supersized: ['choice/supersizefit', 'choice/supermobilefit'],
} as const;

export function picture(
  attachment: Attachment | undefined,
  images: ImagePaths,
  place: keyof typeof variants,
  alt: string,
): HTMLElement | undefined {
  if (attachment?.type !== 'image' || !Object.hasOwn(images, attachment.href)) return undefined;
  const path = images[attachment.href];
  const [wide, narrow] = variants[place];
  const source = document.createElement('source');
  source.media = phone;
  source.srcset = `${path}/${narrow}`;
  const img = document.createElement('img');
  img.src = `${path}/${wide}`;
  img.alt = alt;
  img.decoding = 'async';
  const node = document.createElement('picture');
  node.append(source, img);
  return node;
}

// The alternative text the form gives its picture (Typeform's attachment description).
export function description(attachment: Attachment | undefined): string {
  return attachment?.properties?.description ?? '';
}
