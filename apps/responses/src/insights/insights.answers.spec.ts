import { parseFormDefinition } from '@formline/form-definition';
import { distributeAnswers } from './insights.answers';
import { type AnswerCounts, answerKey } from './insights.repository';

const definition = parseFormDefinition({
  title: 'Answers',
  fields: [
    { ref: 'name', title: 'Name', type: 'short_text' },
    {
      ref: 'plan',
      title: 'Plan',
      type: 'multiple_choice',
      properties: {
        allow_other_choice: true,
        choices: [
          { ref: 'free', label: 'Free' },
          { ref: 'team', label: 'Team' },
        ],
      },
    },
    { ref: 'size', title: 'Size', type: 'dropdown', properties: { choices: [{ ref: 's', label: 'S' }] } },
    { ref: 'again', title: 'Again?', type: 'yes_no' },
    { ref: 'stars', title: 'Stars', type: 'rating', properties: { steps: 3 } },
    {
      ref: 'scale',
      title: 'Scale',
      type: 'opinion_scale',
      properties: { steps: 5, start_at_one: true },
    },
    { ref: 'nps', title: 'NPS', type: 'nps' },
    { ref: 'age', title: 'Age', type: 'number' },
    {
      ref: 'more',
      title: 'More',
      type: 'group',
      properties: { fields: [{ ref: 'inner', title: 'Inner', type: 'yes_no' }] },
    },
  ],
}).definition;
const byRef = new Map(
  definition.fields.flatMap((f) => [f, ...(f.properties.fields ?? [])]).map((f) => [f.ref, f]),
);
const id = (ref: string) => byRef.get(ref)!.id;
const choiceId = (ref: string, index: number) => byRef.get(ref)!.properties.choices![index].id;

describe('distributeAnswers', () => {
  const counts: AnswerCounts = {
    responses: 10,
    answered: new Map([
      [id('plan'), { count: 9, average: 0 }],
      [id('size'), { count: 2, average: 0 }],
      [id('again'), { count: 7, average: 0 }],
      [id('stars'), { count: 4, average: 2.5 }],
      [id('nps'), { count: 1, average: 9 }],
      [id('age'), { count: 3, average: 41.5 }],
    ]),
    given: new Map([
      [answerKey(id('plan'), { choiceId: choiceId('plan', 0) }), 6],
      [answerKey(id('plan'), { choiceId: choiceId('plan', 1) }), 4],
      [answerKey(id('plan'), 'other'), 2],
      [answerKey(id('plan'), { choiceId: 'a-choice-since-removed' }), 5],
      [answerKey(id('size'), { choiceId: choiceId('size', 0) }), 1],
      [answerKey(id('size'), 'other'), 1],
      [answerKey(id('again'), true), 5],
      [answerKey(id('again'), false), 2],
      [answerKey(id('stars'), 1), 1],
      [answerKey(id('stars'), 3), 3],
      [answerKey(id('nps'), 9), 1],
    ]),
  };

  it('lists every answer of each question that has a bounded set, in order, zeros included', () => {
    const { form, fields } = distributeAnswers(definition, counts);
    expect(form).toEqual({ responses_count: 10 });
    expect(fields.map((field) => field.ref)).toEqual([
      'plan',
      'size',
      'again',
      'stars',
      'scale',
      'nps',
      'age',
      'inner',
    ]);
    const field = (ref: string) => fields.find((f) => f.ref === ref);
    expect(field('plan')).toEqual({
      id: id('plan'),
      ref: 'plan',
      title: 'Plan',
      type: 'multiple_choice',
      answers_count: 9,
      choices: [
        { id: choiceId('plan', 0), ref: 'free', label: 'Free', count: 6 },
        { id: choiceId('plan', 1), ref: 'team', label: 'Team', count: 4 },
      ],
      other_count: 2,
    });
    // No "other" allowed, yet answered while it was: shown.
    expect(field('size')).toMatchObject({ answers_count: 2, other_count: 1 });
    expect(field('again')).toMatchObject({
      values: [
        { value: true, count: 5 },
        { value: false, count: 2 },
      ],
    });
    expect(field('again')).not.toHaveProperty('average');
    expect(field('stars')).toMatchObject({
      answers_count: 4,
      average: 2.5,
      values: [
        { value: 1, count: 1 },
        { value: 2, count: 0 },
        { value: 3, count: 3 },
      ],
    });
    expect(field('scale')?.values?.map((v) => v.value)).toEqual([1, 2, 3, 4, 5]);
    expect(field('nps')?.values?.map((v) => v.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(field('nps')?.values?.[9]).toEqual({ value: 9, count: 1 });
    expect(field('age')).toEqual({
      id: id('age'),
      ref: 'age',
      title: 'Age',
      type: 'number',
      answers_count: 3,
      average: 41.5,
    });
  });

  it('answers zeros and no average for a form without responses', () => {
    const { form, fields } = distributeAnswers(definition, {
      responses: 0,
      answered: new Map(),
      given: new Map(),
    });
    expect(form.responses_count).toBe(0);
    expect(fields.every((field) => field.answers_count === 0)).toBe(true);
    expect(fields.find((f) => f.ref === 'plan')).toMatchObject({ other_count: 0 });
    expect(fields.find((f) => f.ref === 'size')).not.toHaveProperty('other_count');
    expect(fields.find((f) => f.ref === 'age')?.average).toBeNull();
    expect(fields.find((f) => f.ref === 'inner')?.values).toEqual([
      { value: true, count: 0 },
      { value: false, count: 0 },
    ]);
  });
});
