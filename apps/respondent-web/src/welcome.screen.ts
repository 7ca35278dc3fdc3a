import type { FormDefinition } from '@formline/form-definition';
import { stagedMedia } from './block-media.view';
import { el, focusFirst } from './element.builder';
import type { PageContext } from './page.context';
import { say } from './page-texts.format';

type WelcomeScreen = FormDefinition['welcome_screens'][number];

// The welcome screen: the form's title and description, how long the form
// takes and how many filled it in (when the form says so), and the button
// that starts (Enter too).
export function showWelcome(page: PageContext, screen: WelcomeScreen): void {
  const { t, settings, session, data } = page;
  const properties = screen.properties as {
    description?: string;
    show_button?: boolean;
    button_text?: string;
  };
  const facts: string[] = [];
  if (settings.show_time_to_complete) facts.push(say(t.minutes, { n: minutesToComplete(page) }));
  if (settings.show_number_of_submissions && data.submissionCount !== undefined)
    facts.push(say(t.submissions, { n: data.submissionCount }));
  const start = el(
    'button',
    { type: 'button', class: 'primary', 'data-autofocus': true },
    properties.button_text ?? t.start,
  );
  start.addEventListener('click', () => {
    session.start();
    page.render();
  });
  const media = stagedMedia(screen, page.images, t);
  const section = el(
    'section',
    { class: 'screen welcome', 'aria-labelledby': 'screen-title' },
    el('h1', { id: 'screen-title', tabindex: '-1' }, session.recall(screen.title)),
    properties.description && el('p', { class: 'description' }, session.recall(properties.description)),
    media.inline,
    properties.show_button !== false &&
      el('div', { class: 'actions' }, start, el('span', { class: 'hint' }, t.pressEnter)),
    facts.length > 0 && el('p', { class: 'facts' }, facts.join(' · ')),
  );
  section.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.target === section.querySelector('h1')) start.click();
  });
  page.show(media.placed, section);
  focusFirst(section);
}

// About 10 seconds a question, 30 for a long text, rounded up to minutes.
export function minutesToComplete(page: Pick<PageContext, 'questions'>): number {
  const seconds = page.questions.reduce((sum, field) => sum + (field.type === 'long_text' ? 30 : 10), 0);
  return Math.max(1, Math.ceil(seconds / 60));
}
