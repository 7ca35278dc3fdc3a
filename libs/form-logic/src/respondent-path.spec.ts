import { compositeFieldTypes, type Field, fieldTypes, parseFormDefinition } from '@formline/form-definition';
import { isComposite } from './blocks';
import type { AnswerValue } from './answer';
import { stepThroughForm, walkForm } from './respondent-path';

const always = { op: 'always', vars: [] };
const calc = (action: string, value: unknown, type = 'constant', target = 'score') => ({
  action,
  details: { target: { type: 'variable', value: target }, value: { type, value } },
  condition: always,
});
const jumpTo = (type: string, value: string, condition: object = always) => ({
  action: 'jump',
  details: { to: { type, value } },
  condition,
});

function formWith(logic: object[], variables = { score: 0, price: 0 }) {
  return parseFormDefinition({
    title: 't',
    fields: [
      { ref: 'a', title: 'A', type: 'number' },
      {
        ref: 'g',
        title: 'G',
        type: 'group',
        properties: { fields: [{ ref: 'g1', title: 'G1', type: 'yes_no' }] },
      },
      { ref: 'c', title: 'C', type: 'short_text' },
    ],
    hidden: ['source'],
    variables,
    thankyou_screens: [
      { ref: 'end1', title: 'One' },
      { ref: 'end2', title: 'Two' },
    ],
    logic,
  }).definition;
}

const walk = (
  logic: object[],
  answers: Record<string, AnswerValue> = {},
  variables?: { score: number; price: number },
) =>
  walkForm(formWith(logic, variables), {
    answer: (ref) => answers[ref],
    hidden: (name) => (name === 'source' ? 'ads' : undefined),
  });

const isFive = {
  op: 'equal',
  vars: [
    { type: 'field', value: 'a' },
    { type: 'constant', value: 5 },
  ],
};

describe('walkForm', () => {
  it('visits every block in order, groups then their questions, and ends on the first thank-you screen', () => {
    const path = walk([]);
    expect(path.visited).toEqual(['a', 'g', 'g1', 'c']);
    expect(path.ending.ref).toBe('end1');
    expect(path.variables).toEqual({ score: 0, price: 0 });
  });

  it.each<[string, unknown, number]>([
    ['add', 5, 15],
    ['subtract', 4, 6],
    ['multiply', 3, 30],
    ['divide', 4, 2.5],
    ['set', 42, 42],
  ])('%s %p on a score of 10 gives %p', (action, value, expected) => {
    const path = walk(
      [{ type: 'field', ref: 'a', actions: [calc(action, value)] }],
      {},
      { score: 10, price: 0 },
    );
    expect(path.variables.score).toBe(expected);
  });

  it('divides by zero as a no-op, and calculates with another variable', () => {
    expect(
      walk([{ type: 'field', ref: 'a', actions: [calc('divide', 0)] }], {}, { score: 10, price: 0 }).variables
        .score,
    ).toBe(10);
    const path = walk(
      [{ type: 'field', ref: 'a', actions: [calc('add', 'price', 'variable')] }],
      {},
      { score: 1, price: 2 },
    );
    expect(path.variables.score).toBe(3);
    expect(
      walk([{ type: 'field', ref: 'a', actions: [calc('add', 2, 'constant', 'price')] }]).variables.price,
    ).toBe(2);
  });

  it('jumps to a field, skipping the blocks between', () => {
    const path = walk([{ type: 'field', ref: 'a', actions: [jumpTo('field', 'c')] }]);
    expect(path.visited).toEqual(['a', 'c']);
  });

  it.each(['thankyou', 'outcome'])('jumps to an ending (%s)', (type) => {
    const path = walk([{ type: 'field', ref: 'a', actions: [jumpTo(type, 'end2')] }]);
    expect(path.visited).toEqual(['a']);
    expect(path.ending.ref).toBe('end2');
  });

  it('takes the first jump whose condition holds, after the calculations before it', () => {
    const big = {
      op: 'greater_than',
      vars: [
        { type: 'field', value: 'a' },
        { type: 'constant', value: 5 },
      ],
    };
    const logic = [
      {
        type: 'field',
        ref: 'a',
        actions: [calc('add', 1), jumpTo('thankyou', 'end2', big), jumpTo('field', 'c'), calc('add', 100)],
      },
    ];
    expect(walk(logic, { a: 9 })).toMatchObject({
      visited: ['a'],
      ending: { ref: 'end2' },
      variables: { score: 1 },
    });
    expect(walk(logic, { a: 1 })).toMatchObject({
      visited: ['a', 'c'],
      ending: { ref: 'end1' },
      variables: { score: 1 },
    });
  });

  it('runs the logic of hidden fields first', () => {
    const isAds = {
      op: 'is',
      vars: [
        { type: 'hidden', value: 'source' },
        { type: 'constant', value: 'ads' },
      ],
    };
    const path = walk([{ type: 'hidden', ref: 'source', actions: [jumpTo('field', 'c', isAds)] }]);
    expect(path.visited).toEqual(['c']);
  });

  it('ends a path that would loop back to a block already seen', () => {
    const path = walk([{ type: 'field', ref: 'c', actions: [jumpTo('field', 'a')] }]);
    expect(path.visited).toEqual(['a', 'g', 'g1', 'c']);
    expect(path.ending.ref).toBe('end1');
  });
});

// The respondent's page walks the same way, one confirmed block at a time.
describe('stepThroughForm', () => {
  const logic = [
    { type: 'field', ref: 'a', actions: [calc('add', 3), jumpTo('field', 'c', isFive)] },
    { type: 'field', ref: 'c', actions: [jumpTo('thankyou', 'end2')] },
  ];
  const step = (confirmed: string[], answers: Record<string, AnswerValue>) =>
    stepThroughForm(
      formWith(logic),
      { answer: (ref) => answers[ref], hidden: () => undefined },
      (block) => !confirmed.includes(block.ref),
    );

  it('stops at the first block not confirmed yet, before running its logic', () => {
    const path = step([], { a: 5 });
    expect(path.at?.ref).toBe('a');
    expect(path.visited).toEqual([]);
    expect(path.variables.score).toBe(0);
    expect(path.ending).toBeUndefined();
  });

  it('follows jumps and calculations of the confirmed blocks, as walkForm does', () => {
    const path = step(['a'], { a: 5 });
    expect(path.at?.ref).toBe('c');
    expect(path.visited).toEqual(['a']);
    expect(path.variables.score).toBe(3);
    expect(step(['a'], { a: 4 }).at?.ref).toBe('g');
  });

  it('reaches the same ending as walkForm once every block on the path is confirmed', () => {
    const path = step(['a', 'c'], { a: 5 });
    expect(path.at).toBeUndefined();
    expect(path.ending?.ref).toBe('end2');
    const full = walkForm(formWith(logic), { answer: (ref) => ({ a: 5 })[ref], hidden: () => undefined });
    expect({ visited: full.visited, ending: full.ending.ref }).toEqual({
      visited: path.visited,
      ending: 'end2',
    });
  });
});

// A composite block (matrix, contact_info, address) is one screen: its inner
// fields are left with it, and their logic runs when it is left.
describe('composite blocks', () => {
  const form = parseFormDefinition({
    title: 't',
    fields: [
      {
        ref: 'm',
        title: 'M',
        type: 'matrix',
        properties: {
          fields: [
            {
              ref: 'row',
              title: 'Row',
              type: 'multiple_choice',
              properties: { choices: [{ ref: 'yes', label: 'Yes' }] },
            },
          ],
        },
      },
      { ref: 'contact', title: 'C', type: 'contact_info' },
      { ref: 'last', title: 'L', type: 'short_text' },
    ],
    thankyou_screens: [{ ref: 'early', title: 'Early' }],
    logic: [
      {
        type: 'field',
        ref: 'row',
        actions: [
          jumpTo('thankyou', 'early', {
            op: 'is',
            vars: [
              { type: 'field', value: 'row' },
              { type: 'choice', value: 'yes' },
            ],
          }),
        ],
      },
    ],
  }).definition;
  const contactRefs = (form.fields[1].properties.fields ?? []).map((f) => f.ref);

  it('visits a composite block and its inner fields together', () => {
    const path = walkForm(form, { answer: () => undefined, hidden: () => undefined });
    expect(path.visited).toEqual(['m', 'row', 'contact', ...contactRefs, 'last']);
  });
  it('runs the logic of an inner field when its block is left', () => {
    const path = walkForm(form, {
      answer: (ref) => (ref === 'row' ? { ref: 'yes', label: 'Yes' } : undefined),
      hidden: () => undefined,
    });
    expect(path.visited).toEqual(['m', 'row']);
    expect(path.ending.ref).toBe('early');
  });
  it('stops at the composite block, never at its inner fields', () => {
    const stops: string[] = [];
    stepThroughForm(form, { answer: () => undefined, hidden: () => undefined }, (block) => {
      stops.push(block.ref);
      return false;
    });
    expect(stops).toEqual(['m', 'contact', 'last']);
  });
  it('knows the same composite types as the form model', () => {
    const types = fieldTypes.filter((type) => isComposite({ type } as Field));
    expect(types).toEqual([...compositeFieldTypes]);
  });
});
