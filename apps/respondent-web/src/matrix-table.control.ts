import type { Field } from '@formline/form-definition';
import { innerQuestions, type StoredAnswer } from '@formline/form-logic';
import { type AnswerControl, type Aria, answerBase, choicesAnswer, pick } from './answer.control';
import { el } from './element.builder';
import type { ControlContext } from './page.context';

// A matrix: one row per inner question, its choices as columns; each row is
// a radio group (checkboxes when it takes several), labelled by its row.
export function matrixTableControl(field: Field, aria: Aria, context: ControlContext): AnswerControl {
  const rows = innerQuestions(field);
  const columns = rows[0]?.properties.choices ?? [];
  const readers = rows.map((row) => {
    const multiple =
      (row.properties as { allow_multiple_selection?: boolean }).allow_multiple_selection === true;
    const saved = context.session.answer(row.ref);
    const rowId = `q-${row.id}-row`;
    const inputs = (row.properties.choices ?? []).map((choice) => {
      const input = el('input', {
        type: multiple ? 'checkbox' : 'radio',
        name: `q-${row.id}`,
        value: choice.ref,
        'aria-label': `${row.title}: ${choice.label}`,
      }) as HTMLInputElement;
      input.checked = multiple
        ? (saved?.choices?.refs.includes(choice.ref) ?? false)
        : saved?.choice?.ref === choice.ref;
      return input;
    });
    const tr = el(
      'tr',
      { role: multiple ? 'group' : 'radiogroup', 'aria-labelledby': rowId },
      el('th', { scope: 'row', id: rowId }, context.session.recall(row.title)),
      ...inputs.map((input) => el('td', {}, input)),
    );
    const read = (): StoredAnswer | undefined => {
      const picked = (row.properties.choices ?? []).filter((_c, i) => inputs[i].checked);
      if (picked.length === 0) return undefined;
      return multiple
        ? choicesAnswer(row, picked)
        : { ...answerBase(row), type: 'choice', choice: pick(picked[0]) };
    };
    return { row, tr, read };
  });
  const table = el(
    'table',
    {
      class: 'matrix',
      'aria-labelledby': aria['aria-labelledby'],
      'aria-describedby': aria['aria-describedby'],
    },
    el(
      'thead',
      {},
      el('tr', {}, el('td', {}), ...columns.map((column) => el('th', { scope: 'col' }, column.label))),
    ),
    el('tbody', {}, ...readers.map((reader) => reader.tr)),
  );
  return {
    node: el('div', { class: 'answer' }, table),
    reader: {
      read: () => undefined,
      inner: () => readers.map(({ row, read }): [Field, StoredAnswer | undefined] => [row, read()]),
    },
  };
}
