import type { Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase } from './answer.control';
import { el } from './element.builder';
import type { ControlContext } from './page.context';

// A payment is recorded, never charged: the page shows the amount (the form's
// price so far) and asks only the payer's name; it never asks for a card. The
// answer is Typeform's payment shape without what only a charge gives: no
// `last4` (no card) and no `success` (no charge was tried, so none succeeded
// or failed).
export function paymentRecordControl(field: Field, aria: Aria, context: ControlContext): AnswerControl {
  const { t, session } = context;
  const currency = (field.properties as { currency?: string }).currency ?? 'USD';
  const amount = () => (session.walk().variables.price ?? 0).toFixed(2);
  const label = el(
    'label',
    { id: `q-${field.id}-payer`, for: `q-${field.id}-input`, class: 'line-label' },
    t.payerName,
  );
  const input = el('input', {
    type: 'text',
    id: `q-${field.id}-input`,
    class: 'text',
    autocomplete: 'cc-name',
    ...aria,
    // Named by the question and what it asks: the payer's name.
    'aria-labelledby': `${aria['aria-labelledby']} ${label.id}`,
  }) as HTMLInputElement;
  const saved = session.answer(field.ref)?.payment?.name;
  if (saved) input.value = saved;
  return {
    node: el(
      'div',
      { class: 'answer payment' },
      el(
        'p',
        { class: 'amount' },
        t.amountDue.replace('{amount}', () => `${amount()} ${currency}`),
      ),
      label,
      input,
      el('p', { class: 'note' }, t.notCharged),
    ),
    reader: {
      read: (): StoredAnswer | undefined => {
        const name = input.value.trim();
        return name === ''
          ? undefined
          : { ...answerBase(field), type: 'payment', payment: { amount: amount(), name } };
      },
    },
  };
}
