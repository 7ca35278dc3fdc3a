import type { Choice, Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase, choicesAnswer, pick } from './answer.control';
import { el } from './element.builder';
import { letter, optionLabel } from './option-label.view';
import type { ControlContext } from './page.context';
import { picture } from './picture.view';

export interface ChoiceGroupOptions {
  choices: Choice[];
  multiple: boolean;
  allowOther: boolean;
  /** Each choice a card with its picture (from the page's own origin) above its label. */
  pictures?: { supersized: boolean; showLabels: boolean };
}

// A multiple choice or picture choice question: radio buttons, or checkboxes
// when it takes several, each picked by its letter too; an "other" choice
// with its own text when the question allows one.
export function choiceGroupControl(
  field: Field,
  aria: Aria,
  context: ControlContext,
  { choices, multiple, allowOther, pictures }: ChoiceGroupOptions,
): AnswerControl {
  const { t } = context;
  const saved = context.session.answer(field.ref);
  const keyHints = context.settings.show_key_hint_on_choices !== false;
  const name = `q-${field.id}`;
  const type = multiple ? 'checkbox' : 'radio';
  const inputs = choices.map((choice) => {
    const input = el('input', { type, name, value: choice.ref }) as HTMLInputElement;
    input.checked = multiple
      ? (saved?.choices?.refs.includes(choice.ref) ?? false)
      : saved?.choice?.ref === choice.ref;
    return input;
  });
  const otherBox = el('input', { type, name, value: '' }) as HTMLInputElement;
  const otherText = el('input', {
    type: 'text',
    class: 'text other-text',
    'aria-label': t.other,
    placeholder: t.other,
  }) as HTMLInputElement;
  const savedOther = multiple ? saved?.choices?.other : saved?.choice?.other;
  if (savedOther !== undefined) {
    otherBox.checked = true;
    otherText.value = savedOther;
  }
  otherText.addEventListener('input', () => {
    otherBox.checked = otherText.value !== '';
  });
  const options = choices.map((choice, i) =>
    optionLabel(inputs[i], letter(i), choice.label, {
      keyHints,
      image: pictures && {
        // The label names the choice; the picture adds nothing to read aloud.
        node: picture(choice.attachment, context.images, pictures.supersized ? 'supersized' : 'choice', ''),
        showLabel: pictures.showLabels,
      },
    }),
  );
  if (allowOther)
    options.push(
      el(
        'div',
        { class: 'option other' },
        optionLabel(otherBox, letter(choices.length), t.other, { keyHints }),
        otherText,
      ),
    );
  const layout = pictures
    ? pictures.supersized
      ? 'options pictures supersized'
      : 'options pictures'
    : 'options';
  // A group of checkboxes takes no aria-required (ARIA allows it on radio groups only).
  const group = el(
    'div',
    {
      role: multiple ? 'group' : 'radiogroup',
      class: layout,
      ...aria,
      ...(multiple ? { 'aria-required': undefined } : {}),
    },
    ...options,
  );
  const all = allowOther ? [...inputs, otherBox] : inputs;
  return {
    node: el('div', { class: 'answer' }, group),
    reader: {
      read: (): StoredAnswer | undefined => {
        const picked = choices.filter((_choice, i) => inputs[i].checked);
        const other =
          allowOther && otherBox.checked && otherText.value.trim() !== ''
            ? otherText.value.trim()
            : undefined;
        if (multiple) {
          if (picked.length === 0 && other === undefined) return undefined;
          return choicesAnswer(field, picked, other);
        }
        if (picked[0]) return { ...answerBase(field), type: 'choice', choice: pick(picked[0]) };
        return other !== undefined ? { ...answerBase(field), type: 'choice', choice: { other } } : undefined;
      },
      key: (key) => {
        const index = key.length === 1 ? key.toUpperCase().charCodeAt(0) - 65 : -1;
        const input = all[index];
        if (!input) return false;
        input.checked = multiple ? !input.checked : true;
        if (input === otherBox) otherText.focus();
        else input.focus();
        return true;
      },
    },
  };
}
