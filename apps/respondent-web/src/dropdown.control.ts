import type { Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase, pick } from './answer.control';
import { el } from './element.builder';

// A dropdown question: the browser's select, its first option choosing none.
export function dropdownControl(
  field: Field,
  options: { aria: Aria; prompt: string; saved?: StoredAnswer },
): AnswerControl {
  const choices = field.properties.choices ?? [];
  const select = el(
    'select',
    { id: `q-${field.id}-input`, class: 'text', ...options.aria },
    el('option', { value: '' }, options.prompt),
    ...choices.map((choice) => el('option', { value: choice.ref }, choice.label)),
  ) as HTMLSelectElement;
  if (options.saved?.choice?.ref) select.value = options.saved.choice.ref;
  return {
    node: el('div', { class: 'answer' }, select),
    reader: {
      read: () => {
        const choice = choices.find((c) => c.ref === select.value);
        return choice ? { ...answerBase(field), type: 'choice', choice: pick(choice) } : undefined;
      },
    },
  };
}
