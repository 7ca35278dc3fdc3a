import type { Field } from '@formline/form-definition';
import { innerQuestions, type StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, answerBase } from './answer.control';
import { el } from './element.builder';
import type { ControlContext } from './page.context';

const inputTypes: Record<string, [string, 'text' | 'email' | 'phone_number', string]> = {
  short_text: ['text', 'text', 'on'],
  email: ['email', 'email', 'email'],
  phone_number: ['tel', 'phone_number', 'tel'],
};

// What the browser may fill each line in with.
const autocomplete: Record<string, string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  company: 'organization',
  address_line1: 'address-line1',
  address_line2: 'address-line2',
  city: 'address-level2',
  state: 'address-level1',
  zip: 'postal-code',
  country: 'country-name',
};

// The lines of a contact_info or address block: one labelled input each.
export function contactLinesControl(field: Field, context: ControlContext): AnswerControl {
  const readers = innerQuestions(field).map((line) => {
    const [type, key, fallback] = inputTypes[line.type] ?? inputTypes.short_text;
    const id = `q-${line.id}-input`;
    const required = (line.validations as { required?: boolean } | undefined)?.required === true;
    const subfield = (line.properties as { subfield_key?: string }).subfield_key ?? '';
    const input = el('input', {
      type,
      id,
      class: 'text',
      autocomplete: Object.hasOwn(autocomplete, subfield) ? autocomplete[subfield] : fallback,
      'aria-required': required ? 'true' : undefined,
      ...(type === 'tel' ? { inputmode: 'tel' } : {}),
    }) as HTMLInputElement;
    const saved = context.session.answer(line.ref)?.[key];
    if (typeof saved === 'string') input.value = saved;
    const label = el(
      'label',
      { for: id, class: 'line-label' },
      context.session.recall(line.title),
      required && el('span', { class: 'required', 'aria-hidden': 'true' }, ' *'),
    );
    const read = (): StoredAnswer | undefined => {
      let value = input.value.trim();
      if (key === 'phone_number') value = value.replace(/[\s().-]/g, '');
      return value === '' ? undefined : { ...answerBase(line), type: key, [key]: value };
    };
    return { line, node: el('div', { class: 'line' }, label, input), read };
  });
  return {
    node: el(
      'div',
      { class: 'answer lines', role: 'group', 'aria-labelledby': `q-${field.id}-title` },
      ...readers.map((r) => r.node),
    ),
    reader: {
      read: () => undefined,
      inner: () => readers.map(({ line, read }): [Field, StoredAnswer | undefined] => [line, read()]),
    },
  };
}
