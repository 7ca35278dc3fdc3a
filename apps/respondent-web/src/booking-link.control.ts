import type { Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase } from './answer.control';
import { el } from './element.builder';
import type { ControlContext } from './page.context';
import { isHttpUrl } from './http-url.check';

// A Calendly question: Calendly's scheduler is third-party content the page
// never loads. The respondent books on Calendly's own page (the application's
// address, in a new tab) and gives the booking's link, the answer Typeform
// stores, in a field labelled as such.
export function bookingLinkControl(field: Field, aria: Aria, context: ControlContext): AnswerControl {
  const { t } = context;
  const scheduler = field.application?.iframe_url;
  const labelId = `q-${field.id}-booking`;
  const hintId = `q-${field.id}-booking-hint`;
  const input = el('input', {
    type: 'url',
    id: `q-${field.id}-input`,
    class: 'text',
    inputmode: 'url',
    autocomplete: 'url',
    ...aria,
    // Named by the question and what it asks: the booking's link.
    'aria-labelledby': `${aria['aria-labelledby']} ${labelId}`,
    'aria-describedby': [hintId, aria['aria-describedby']].filter(Boolean).join(' '),
  }) as HTMLInputElement;
  const saved = context.session.answer(field.ref)?.url;
  if (saved) input.value = saved;
  return {
    node: el(
      'div',
      { class: 'answer booking' },
      isHttpUrl(scheduler) &&
        el(
          'a',
          { class: 'button secondary', href: scheduler, target: '_blank', rel: 'noopener noreferrer' },
          t.bookTime,
          el('span', { class: 'sr-only' }, ` (${t.newTab})`),
        ),
      el('label', { id: labelId, for: input.id, class: 'line-label' }, t.bookingUrl),
      input,
      el('p', { id: hintId, class: 'note' }, t.bookingHint),
    ),
    reader: {
      read: (): StoredAnswer | undefined => {
        const value = input.value.trim();
        return value === '' ? undefined : { ...answerBase(field), type: 'url', url: value };
      },
    },
  };
}
