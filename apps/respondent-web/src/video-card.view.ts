import type { Field } from '@formline/form-definition';
import type { PageTexts } from '@formline/form-logic';
import { videoLink } from './block-layout.rules';

// A video attachment on the page: a poster that links to the video on its
// own site, in a new tab. Embedding YouTube's or Vimeo's player would load
// their scripts, cookies and trackers on a page that promises no third-party
// request (its Content-Security-Policy allows no frame at all): the
// respondent chooses to go there, and nothing is fetched from there before.
// The attachment's `scale` (0.4 to 1) sizes the poster, as Typeform's player,
// unless a layout places it (then it fills its place).

type Attachment = NonNullable<Field['attachment']>;

export function videoCard(
  attachment: Attachment,
  t: Pick<PageTexts, 'watchVideo' | 'newTab'>,
  placedByLayout = false,
): HTMLElement | undefined {
  const link = attachment.type === 'video' ? videoLink(attachment.href) : undefined;
  if (!link) return undefined;
  const anchor = document.createElement('a');
  anchor.className = 'video';
  anchor.href = link.url;
  anchor.target = '_blank';
  anchor.rel = 'noopener noreferrer';
  if (!placedByLayout) anchor.style.maxWidth = `${Math.round((attachment.scale ?? 0.6) * 100)}%`;
  const poster = document.createElement('span');
  poster.className = 'video-poster';
  poster.setAttribute('aria-hidden', 'true');
  poster.textContent = '▶';
  const text = document.createElement('span');
  text.className = 'video-text';
  text.textContent = t.watchVideo.replace('{site}', () => link.site);
  const description = attachment.properties?.description;
  const note = document.createElement('span');
  note.className = 'sr-only';
  note.textContent = ` (${t.newTab})`;
  anchor.append(poster, text, note);
  if (description) anchor.title = description;
  return anchor;
}
