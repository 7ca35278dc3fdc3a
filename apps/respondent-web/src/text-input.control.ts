import type { Field } from '@formline/form-definition';
import type { PageTexts, StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase } from './answer.control';
import { el } from './element.builder';

export type TextKey = 'text' | 'email' | 'url' | 'phone_number' | 'date';

// A line (or, for `textarea`, a few lines) of text; the answer is its trimmed
// text, a phone number without its spaces, brackets, dots and dashes.
export function textInputControl(
  field: Field,
  options: {
    type: string;
    key: TextKey;
    aria: Aria;
    texts: Pick<PageTexts, 'typeHere'>;
    saved?: StoredAnswer;
    extra?: Record<string, string | undefined>;
  },
): AnswerControl {
  const { type, key } = options;
  const input = el(type === 'textarea' ? 'textarea' : 'input', {
    ...(type === 'textarea' ? { rows: '3' } : { type }),
    id: `q-${field.id}-input`,
    class: 'text',
    placeholder: type === 'date' ? undefined : options.texts.typeHere,
    autocomplete: type === 'email' ? 'email' : type === 'tel' ? 'tel' : 'off',
    ...options.aria,
    ...options.extra,
  }) as HTMLInputElement;
  const previous = options.saved?.[key];
  if (typeof previous === 'string') input.value = previous;
  return {
    node: el('div', { class: 'answer' }, input),
    reader: {
      read: (): StoredAnswer | undefined => {
        let value = input.value.trim();
        if (key === 'phone_number') value = value.replace(/[\s().-]/g, '');
        return value === '' ? undefined : { ...answerBase(field), type: key, [key]: value };
      },
    },
  };
}
