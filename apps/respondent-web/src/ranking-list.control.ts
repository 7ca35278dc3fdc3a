import type { Field } from '@formline/form-definition';
import type { StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, choicesAnswer } from './answer.control';
import { el } from './element.builder';
import type { ControlContext } from './page.context';
import { naming, say } from './page-texts.format';

// A ranking: every choice in a list the respondent reorders with the buttons
// beside each (keyboard and screen readers included); answered once moved.
// After a move the focus stays with the moved choice, on the button that
// moved it while that one can move it further, else on its other button (a
// disabled button holds no focus), and its new place is announced.
export function rankingListControl(field: Field, aria: Aria, context: ControlContext): AnswerControl {
  const { t, live } = context;
  const choices = field.properties.choices ?? [];
  const saved = context.session.answer(field.ref)?.choices?.refs;
  let order = saved ? saved.flatMap((ref) => choices.filter((choice) => choice.ref === ref)) : [...choices];
  let moved = saved !== undefined;
  // A list takes no aria-required nor aria-invalid: it is named and described only.
  const list = el('ol', {
    class: 'options ranking',
    'aria-labelledby': aria['aria-labelledby'],
    'aria-describedby': aria['aria-describedby'],
  });
  const draw = (focus?: { ref: string; direction: 'up' | 'down' }) => {
    const rows = order.map((choice, i) => {
      const button = (direction: 'up' | 'down', disabled: boolean) => {
        const node = el(
          'button',
          {
            type: 'button',
            class: 'move',
            'aria-label': naming(direction === 'up' ? t.moveUp : t.moveDown, choice.label),
            'data-direction': direction,
            disabled,
          },
          direction === 'up' ? '↑' : '↓',
        );
        node.addEventListener('click', () => move(i, direction));
        return node;
      };
      return el(
        'li',
        { class: 'option rank', 'data-ref': choice.ref },
        el('span', { class: 'key', 'aria-hidden': 'true' }, String(i + 1)),
        el('span', { class: 'option-text' }, choice.label),
        button('up', i === 0),
        button('down', i === order.length - 1),
      );
    });
    list.replaceChildren(...rows);
    if (!focus) return;
    const row = rows[order.findIndex((choice) => choice.ref === focus.ref)];
    const buttons = [...row.querySelectorAll<HTMLButtonElement>('button')];
    const same = buttons.find((button) => button.dataset.direction === focus.direction);
    (same && !same.disabled ? same : buttons.find((button) => !button.disabled))?.focus();
  };
  const move = (from: number, direction: 'up' | 'down') => {
    const to = direction === 'up' ? from - 1 : from + 1;
    if (to < 0 || to >= order.length) return;
    const next = [...order];
    [next[from], next[to]] = [next[to], next[from]];
    order = next;
    moved = true;
    draw({ ref: next[to].ref, direction });
    live.textContent = naming(say(t.rankedAt, { n: to + 1, total: order.length }), next[to].label);
    list.dispatchEvent(new Event('change', { bubbles: true }));
  };
  draw();
  return {
    node: el('div', { class: 'answer' }, list),
    reader: {
      read: (): StoredAnswer | undefined => (moved ? choicesAnswer(field, order) : undefined),
    },
  };
}
