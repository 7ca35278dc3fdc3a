import type { Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase } from './answer.control';
import { el } from './element.builder';

// A number question: the browser's number input, bounded by the question's validations.
export function numberInputControl(
  field: Field,
  options: { aria: Aria; placeholder: string; saved?: StoredAnswer },
): AnswerControl {
  const validations = (field.validations ?? {}) as Record<string, number | undefined>;
  const input = el('input', {
    type: 'number',
    step: 'any',
    inputmode: 'decimal',
    id: `q-${field.id}-input`,
    class: 'text',
    placeholder: options.placeholder,
    min: validations.min_value !== undefined ? String(validations.min_value) : undefined,
    max: validations.max_value !== undefined ? String(validations.max_value) : undefined,
    ...options.aria,
  }) as HTMLInputElement;
  if (typeof options.saved?.number === 'number') input.value = String(options.saved.number);
  return {
    node: el('div', { class: 'answer' }, input),
    reader: {
      read: () =>
        input.value.trim() === ''
          ? undefined
          : { ...answerBase(field), type: 'number', number: Number(input.value) },
    },
  };
}
