import type { Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase } from './answer.control';
import { el } from './element.builder';
import { optionLabel } from './option-label.view';
import type { ControlContext } from './page.context';

// A yes/no or legal question: two radio buttons, yes (or accept) first.
export function booleanGroupControl(field: Field, aria: Aria, context: ControlContext): AnswerControl {
  const { t } = context;
  const labels = field.type === 'yes_no' ? [t.yes, t.no] : [t.accept, t.decline];
  const saved = context.session.answer(field.ref)?.boolean;
  const keyHints = context.settings.show_key_hint_on_choices !== false;
  const name = `q-${field.id}`;
  const inputs = [true, false].map((value) => {
    const input = el('input', { type: 'radio', name, value: String(value) }) as HTMLInputElement;
    input.checked = saved === value;
    return input;
  });
  const hints = field.type === 'yes_no' ? initials(labels) : ['A', 'B'];
  return {
    node: el(
      'div',
      { class: 'answer' },
      el(
        'div',
        { role: 'radiogroup', class: 'options', ...aria },
        ...inputs.map((input, i) => optionLabel(input, hints[i], labels[i], { keyHints })),
      ),
    ),
    reader: {
      read: (): StoredAnswer | undefined => {
        const index = inputs.findIndex((input) => input.checked);
        return index < 0 ? undefined : { ...answerBase(field), type: 'boolean', boolean: index === 0 };
      },
      key: (key: string) => {
        const index = hints.indexOf(key.toUpperCase());
        if (index < 0) return false;
        inputs[index].checked = true;
        inputs[index].focus();
        return true;
      },
    },
  };
}

// Yes and No picked by their initials (Y/N, S/N, J/N...) where a keyboard
// types them: two different letters that have a case. Else (はい/いいえ, 是/否) A and B.
export function initials(labels: string[]): string[] {
  const [yes, no] = labels.map((label) => label.charAt(0).toUpperCase());
  const typeable = (letter: string) => letter.toLowerCase() !== letter;
  return yes !== no && typeable(yes) && typeable(no) ? [yes, no] : ['A', 'B'];
}
