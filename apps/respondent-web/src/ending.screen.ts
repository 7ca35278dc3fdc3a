import type { ThankYouScreen } from '@formline/form-definition';
import { stagedMedia } from './block-media.view';
import { el, mayTakeFocus } from './element.builder';
import { isHttpUrl } from './http-url.check';
import type { PageContext } from './page.context';

// The ending the respondent reached: a redirect (the ending's, else the
// form's `redirect_after_submit_url`) when it is an http(s) address, else the
// thank-you screen with its button (a link on, or filling in again).
export function showEnding(page: PageContext, ending: ThankYouScreen): void {
  const { t, session } = page;
  const properties = ending.properties as {
    description?: string;
    show_button?: boolean;
    button_text?: string;
    button_mode?: string;
    redirect_url?: string;
  };
  // Redirect addresses may recall answers and hidden fields, as Typeform's do.
  const redirect = (url: unknown) =>
    typeof url === 'string' ? session.recall(url, encodeURIComponent) : undefined;
  const endingUrl = redirect(properties.redirect_url);
  if (ending.type === 'url_redirect' && isHttpUrl(endingUrl)) return page.location.assign(endingUrl);
  const formUrl = redirect(page.settings.redirect_after_submit_url);
  if (isHttpUrl(formUrl)) return page.location.assign(formUrl);
  let button: HTMLElement | undefined;
  if (properties.show_button) {
    if (properties.button_mode === 'redirect' && isHttpUrl(endingUrl)) {
      button = el(
        'a',
        { class: 'button primary', href: endingUrl, rel: 'noopener noreferrer' },
        properties.button_text ?? t.continue,
      );
    } else {
      button = el('button', { type: 'button', class: 'primary' }, properties.button_text ?? t.again);
      button.addEventListener('click', () => page.location.reload());
    }
  }
  const media = stagedMedia(ending, page.images, t);
  const section = el(
    'section',
    { class: 'screen ending', 'aria-labelledby': 'screen-title', 'data-ending': ending.ref },
    el('h1', { id: 'screen-title', tabindex: '-1' }, session.recall(ending.title)),
    properties.description && el('p', { class: 'description' }, session.recall(properties.description)),
    media.inline,
    button && el('div', { class: 'actions' }, button),
  );
  page.show(media.placed, section);
  page.live.textContent = session.recall(ending.title);
  if (mayTakeFocus()) section.querySelector<HTMLElement>('h1')?.focus();
}
