import type { Condition } from '@formline/form-definition';
import type { AnswerValue } from './answer';
import { holds, type LogicState } from './conditions';

// Every operator of a logic condition, table-driven: [operator, answer, constant, holds?].
const answers: Record<string, AnswerValue> = {
  text: 'Hello World',
  number: 7,
  yes: true,
  date: '2026-03-15',
  choice: { ref: 'red', label: 'Red' },
  many: [
    { ref: 'red', label: 'Red' },
    { ref: 'blue', label: 'Blue' },
  ],
};
const state: LogicState = {
  answer: (ref) => answers[ref],
  hidden: (name) => (name === 'source' ? 'newsletter' : undefined),
  variable: (name) => (name === 'score' ? 3 : 0),
};
const compare = (
  op: string,
  left: { type: string; value: unknown },
  right: { type: string; value: unknown },
) => holds({ op, vars: [left, right] } as Condition, state);
const field = (value: string) => ({ type: 'field', value });
const constant = (value: unknown) => ({ type: 'constant', value });

describe('condition operators', () => {
  it.each<[string, string, unknown, boolean]>([
    ['is', 'text', 'hello world', true],
    ['is', 'text', 'hello', false],
    ['is_not', 'text', 'hello', true],
    ['equal', 'number', 7, true],
    ['equal', 'number', '7', true],
    ['not_equal', 'number', 8, true],
    ['is', 'yes', true, true],
    ['is', 'yes', false, false],
    ['begins_with', 'text', 'hello', true],
    ['begins_with', 'text', 'world', false],
    ['ends_with', 'text', 'WORLD', true],
    ['ends_with', 'text', 'hello', false],
    ['contains', 'text', 'o w', true],
    ['contains', 'text', 'xyz', false],
    ['not_contains', 'text', 'xyz', true],
    ['not_contains', 'text', 'world', false],
    ['lower_than', 'number', 8, true],
    ['lower_than', 'number', 7, false],
    ['lower_equal_than', 'number', 7, true],
    ['lower_equal_than', 'number', 6, false],
    ['greater_than', 'number', 6, true],
    ['greater_than', 'number', 7, false],
    ['greater_equal_than', 'number', 7, true],
    ['greater_equal_than', 'number', 8, false],
    ['on', 'date', '2026-03-15', true],
    ['on', 'date', '2026-03-15T10:00:00Z', true],
    ['on', 'date', '2026-03-16', false],
    ['not_on', 'date', '2026-03-16', true],
    ['not_on', 'date', '2026-03-15', false],
    ['earlier_than', 'date', '2026-03-16', true],
    ['earlier_than', 'date', '2026-03-15', false],
    ['earlier_than_or_on', 'date', '2026-03-15', true],
    ['earlier_than_or_on', 'date', '2026-03-14', false],
    ['later_than', 'date', '2026-03-14', true],
    ['later_than', 'date', '2026-03-15', false],
    ['later_than_or_on', 'date', '2026-03-15', true],
    ['later_than_or_on', 'date', '2026-03-16', false],
    ['is', 'choice', 'red', true], // a constant compares with the label
    ['contains', 'many', 'blue', true],
    ['contains', 'many', 'green', false],
  ])('%s: %s vs %p is %p', (op, ref, value, expected) => {
    expect(compare(op, field(ref), constant(value))).toBe(expected);
  });

  it('always holds', () => expect(holds({ op: 'always', vars: [] }, state)).toBe(true));

  it('matches a choice by ref', () => {
    expect(compare('is', field('choice'), { type: 'choice', value: 'red' })).toBe(true);
    expect(compare('is', field('choice'), { type: 'choice', value: 'blue' })).toBe(false);
    expect(compare('is_not', field('choice'), { type: 'choice', value: 'blue' })).toBe(true);
    expect(compare('is', field('many'), { type: 'choice', value: 'blue' })).toBe(true);
  });

  it('reads hidden fields and variables', () => {
    expect(compare('is', { type: 'hidden', value: 'source' }, constant('Newsletter'))).toBe(true);
    expect(compare('greater_than', { type: 'variable', value: 'score' }, constant(2))).toBe(true);
  });

  it('lets an unanswered question satisfy only the negative operators', () => {
    expect(compare('is', field('unanswered'), constant('x'))).toBe(false);
    expect(compare('lower_than', field('unanswered'), constant(1))).toBe(false);
    expect(compare('is_not', field('unanswered'), constant('x'))).toBe(true);
    expect(compare('not_contains', field('unanswered'), constant('x'))).toBe(true);
  });

  it('combines conditions with and/or', () => {
    const yes = { op: 'is', vars: [field('yes'), constant(true)] };
    const no = { op: 'is', vars: [field('yes'), constant(false)] };
    expect(holds({ op: 'and', vars: [yes, yes] } as unknown as Condition, state)).toBe(true);
    expect(holds({ op: 'and', vars: [yes, no] } as unknown as Condition, state)).toBe(false);
    expect(holds({ op: 'or', vars: [no, yes] } as unknown as Condition, state)).toBe(true);
    expect(holds({ op: 'or', vars: [no, no] } as unknown as Condition, state)).toBe(false);
  });
});
