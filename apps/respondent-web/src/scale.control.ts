import type { Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase } from './answer.control';
import { el } from './element.builder';
import { optionLabel } from './option-label.view';
import type { ControlContext } from './page.context';

// A rating, opinion scale or Net Promoter Score question: one radio button a
// step, picked by its digit too, with the scale's labels under it.
export function scaleControl(field: Field, aria: Aria, context: ControlContext): AnswerControl {
  const properties = field.properties as {
    steps?: number;
    start_at_one?: boolean;
    labels?: Record<string, string>;
  };
  // Net Promoter Score: always 0 to 10.
  const steps = field.type === 'nps' ? 11 : (properties.steps ?? (field.type === 'rating' ? 5 : 11));
  const start =
    field.type === 'rating' || (field.type === 'opinion_scale' && properties.start_at_one === true) ? 1 : 0;
  const end = field.type === 'rating' ? steps : start + steps - 1;
  const saved = context.session.answer(field.ref)?.number;
  const keyHints = context.settings.show_key_hint_on_choices !== false;
  const name = `q-${field.id}`;
  const values = Array.from({ length: end - start + 1 }, (_v, i) => start + i);
  const inputs = values.map((value) => {
    const input = el('input', { type: 'radio', name, value: String(value) }) as HTMLInputElement;
    input.checked = saved === value;
    return input;
  });
  const labels = properties.labels ?? {};
  return {
    node: el(
      'div',
      { class: 'answer' },
      el(
        'div',
        { role: 'radiogroup', class: `options scale ${field.type}`, ...aria },
        ...inputs.map((input, i) =>
          optionLabel(input, undefined, field.type === 'rating' ? `${values[i]} ★` : String(values[i]), {
            keyHints,
          }),
        ),
      ),
      (labels.left || labels.center || labels.right) &&
        el(
          'p',
          { class: 'scale-labels' },
          el('span', {}, labels.left ?? ''),
          el('span', {}, labels.center ?? ''),
          el('span', {}, labels.right ?? ''),
        ),
    ),
    reader: {
      read: (): StoredAnswer | undefined => {
        const index = inputs.findIndex((input) => input.checked);
        return index < 0 ? undefined : { ...answerBase(field), type: 'number', number: values[index] };
      },
      key: (key: string) => {
        const index = values.indexOf(Number(key));
        if (!/^\d$/.test(key) || index < 0) return false;
        inputs[index].checked = true;
        inputs[index].focus();
        return true;
      },
    },
  };
}
