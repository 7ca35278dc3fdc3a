import { parseFormDefinition } from '@formline/form-definition';
import { checkAnswers } from './check-answers';
import type { AnswerInput } from './submission.schema';

const form = parseFormDefinition({
  title: 't',
  fields: [
    { ref: 'short', title: 'q', type: 'short_text', validations: { max_length: 5 } },
    { ref: 'long', title: 'q', type: 'long_text' },
    { ref: 'email', title: 'q', type: 'email' },
    { ref: 'number', title: 'q', type: 'number', validations: { min_value: 1, max_value: 10 } },
    {
      ref: 'single',
      title: 'q',
      type: 'multiple_choice',
      properties: {
        choices: [
          { ref: 'a', label: 'A' },
          { ref: 'b', label: 'B' },
        ],
      },
    },
    {
      ref: 'multi',
      title: 'q',
      type: 'multiple_choice',
      properties: {
        allow_multiple_selection: true,
        allow_other_choice: true,
        choices: [
          { ref: 'a', label: 'A' },
          { ref: 'b', label: 'B' },
        ],
      },
      validations: { max_selection: 2 },
    },
    { ref: 'drop', title: 'q', type: 'dropdown', properties: { choices: [{ ref: 'x', label: 'X' }] } },
    { ref: 'yesno', title: 'q', type: 'yes_no' },
    { ref: 'rating', title: 'q', type: 'rating', properties: { steps: 5 } },
    { ref: 'opinion', title: 'q', type: 'opinion_scale', properties: { steps: 5 } },
    { ref: 'date', title: 'q', type: 'date' },
    { ref: 'phone', title: 'q', type: 'phone_number' },
    { ref: 'site', title: 'q', type: 'website' },
    { ref: 'legal', title: 'q', type: 'legal', validations: { required: true } },
    { ref: 'statement', title: 'q', type: 'statement' },
    {
      ref: 'picture',
      title: 'q',
      type: 'picture_choice',
      properties: {
        allow_multiple_selection: true,
        choices: [
          { ref: 'p1', label: 'P1' },
          { ref: 'p2', label: 'P2' },
        ],
      },
      validations: { max_selection: 1 },
    },
    { ref: 'nps', title: 'q', type: 'nps' },
    {
      ref: 'rank',
      title: 'q',
      type: 'ranking',
      properties: {
        choices: [
          { ref: 'r1', label: 'R1' },
          { ref: 'r2', label: 'R2' },
          { ref: 'r3', label: 'R3' },
        ],
      },
    },
    {
      ref: 'matrix',
      title: 'q',
      type: 'matrix',
      properties: {
        fields: [
          {
            ref: 'row1',
            title: 'Row 1',
            type: 'multiple_choice',
            properties: { choices: [{ ref: 'row1_good', label: 'Good' }] },
          },
        ],
      },
    },
    {
      ref: 'contact',
      title: 'q',
      type: 'contact_info',
      properties: {
        fields: [
          { ref: 'contact_email', title: 'Email', type: 'email', properties: { subfield_key: 'email' } },
        ],
      },
    },
    { ref: 'upload', title: 'q', type: 'file_upload' },
    { ref: 'pay', title: 'q', type: 'payment' },
    { ref: 'call', title: 'q', type: 'calendly' },
    { ref: 'video', title: 'q', type: 'multi_format' },
  ],
}).definition;

const answer = (ref: string, type: string, value: unknown) =>
  ({ field: { ref }, type, [type]: value }) as AnswerInput;
const problemsOf = (input: AnswerInput) => checkAnswers(form, [input]).problems.map((p) => p.field);

describe('checkAnswers', () => {
  it.each<[string, string, unknown]>([
    ['short', 'text', 'hi'],
    ['long', 'text', 'a long answer'],
    ['email', 'email', 'ann@example.com'],
    ['number', 'number', 10],
    ['single', 'choice', { ref: 'a' }],
    ['single', 'choice', { label: 'B' }],
    ['multi', 'choices', { refs: ['a', 'b'] }],
    ['multi', 'choices', { labels: ['A'], other: 'C' }],
    ['drop', 'choice', { ref: 'x' }],
    ['yesno', 'boolean', false],
    ['rating', 'number', 5],
    ['opinion', 'number', 0],
    ['date', 'date', '2026-02-28'],
    ['phone', 'phone_number', '+34600111222'],
    ['site', 'url', 'https://example.com/x'],
    ['legal', 'boolean', true],
    ['picture', 'choice', { ref: 'p2' }],
    ['picture', 'choices', { refs: ['p1'] }],
    ['nps', 'number', 0],
    ['nps', 'number', 10],
    ['rank', 'choices', { refs: ['r3', 'r1', 'r2'] }],
    ['rank', 'choices', { labels: ['R2', 'R3', 'R1'] }],
    ['row1', 'choice', { ref: 'row1_good' }],
    ['contact_email', 'email', 'ann@example.com'],
    ['upload', 'file_url', 'https://files.example.com/logo.png'],
    ['pay', 'payment', { amount: '10.50', last4: '4242', name: 'Ann', success: true }],
    ['pay', 'payment', { amount: '3' }],
    ['call', 'url', 'https://calendly.com/scheduled_events/abc'],
    ['video', 'multi_format', { format: 'video', file_url: 'https://files.example.com/clip.webm' }],
    ['video', 'multi_format', { format: 'audio', file_url: 'https://files.example.com/clip.ogg' }],
    ['video', 'multi_format', { format: 'text', text: 'I would rather type' }],
  ])('accepts %s as %s %p', (ref, type, value) => {
    expect(problemsOf(answer(ref, type, value))).toEqual([]);
  });

  it.each<[string, string, unknown, string]>([
    ['short', 'text', 'too long', 'answers[0].text'],
    ['email', 'email', 'nope', 'answers[0].email'],
    ['email', 'text', 'a@b.c', 'answers[0].type'],
    ['number', 'number', 11, 'answers[0].number'],
    ['number', 'number', 0, 'answers[0].number'],
    ['single', 'choice', { ref: 'zzz' }, 'answers[0].choice'],
    ['single', 'choice', { other: 'C' }, 'answers[0].choice'],
    ['single', 'choices', { refs: ['a'] }, 'answers[0].choices'],
    ['multi', 'choices', { refs: ['a', 'zzz'] }, 'answers[0].choices'],
    ['multi', 'choices', { refs: ['a', 'b'], other: 'C' }, 'answers[0].choices'],
    ['multi', 'choices', {}, 'answers[0].choices'],
    ['rating', 'number', 0, 'answers[0].number'],
    ['rating', 'number', 2.5, 'answers[0].number'],
    ['opinion', 'number', 5, 'answers[0].number'],
    ['date', 'date', '2026-02-30', 'answers[0].date'],
    ['phone', 'phone_number', '600 111 222', 'answers[0].phone_number'],
    ['site', 'url', 'ftp://example.com', 'answers[0].url'],
    ['legal', 'boolean', false, 'answers[0].boolean'],
    ['statement', 'text', 'x', 'answers[0].type'],
    ['picture', 'choices', { refs: ['p1', 'p2'] }, 'answers[0].choices'],
    ['picture', 'choice', { ref: 'zzz' }, 'answers[0].choice'],
    ['nps', 'number', 11, 'answers[0].number'],
    ['nps', 'number', -1, 'answers[0].number'],
    ['nps', 'number', 4.5, 'answers[0].number'],
    ['rank', 'choices', { refs: ['r1', 'r2'] }, 'answers[0].choices'],
    ['rank', 'choices', { refs: ['r1', 'r1', 'r2'] }, 'answers[0].choices'],
    ['rank', 'choices', { refs: ['r1', 'r2'], labels: ['R3'] }, 'answers[0].choices'],
    ['rank', 'choice', { ref: 'r1' }, 'answers[0].type'],
    ['matrix', 'choice', { ref: 'row1_good' }, 'answers[0].type'],
    ['row1', 'choice', { ref: 'zzz' }, 'answers[0].choice'],
    ['contact', 'text', 'x', 'answers[0].type'],
    ['contact_email', 'email', 'nope', 'answers[0].email'],
    ['upload', 'file_url', 'file:///etc/passwd', 'answers[0].file_url'],
    ['upload', 'text', 'logo.png', 'answers[0].type'],
    ['pay', 'payment', { amount: 'ten' }, 'answers[0].payment'],
    ['pay', 'payment', { amount: '1.234' }, 'answers[0].payment'],
    ['pay', 'payment', { amount: '1', last4: '42' }, 'answers[0].payment'],
    ['call', 'url', 'calendly', 'answers[0].url'],
    ['video', 'multi_format', { format: 'video' }, 'answers[0].multi_format'],
    ['video', 'multi_format', { format: 'audio', file_url: 'file:///etc/passwd' }, 'answers[0].multi_format'],
    [
      'video',
      'multi_format',
      { format: 'video', file_url: 'https://f.example.com/a', text: 'x' },
      'answers[0].multi_format',
    ],
    ['video', 'multi_format', { format: 'text', text: '  ' }, 'answers[0].multi_format'],
    [
      'video',
      'multi_format',
      { format: 'text', text: 'x', file_url: 'https://f.example.com/a' },
      'answers[0].multi_format',
    ],
    ['video', 'file_url', 'https://files.example.com/clip.webm', 'answers[0].type'],
    ['upload', 'multi_format', { format: 'text', text: 'x' }, 'answers[0].type'],
    ['missing', 'text', 'x', 'answers[0].field'],
  ])('refuses %s as %s %p at %s', (ref, type, value, field) => {
    expect(problemsOf(answer(ref, type, value))).toEqual([field]);
  });

  it('stores a ranking in the order the respondent gave', () => {
    const { answers } = checkAnswers(form, [answer('rank', 'choices', { refs: ['r3', 'r1', 'r2'] })]);
    expect(answers.get('rank')?.choices).toMatchObject({
      refs: ['r3', 'r1', 'r2'],
      labels: ['R3', 'R1', 'R2'],
    });
  });

  it('stores a payment as given (recorded, never charged)', () => {
    const payment = { amount: '10.50', last4: '4242', name: 'Ann', success: true };
    const { answers } = checkAnswers(form, [answer('pay', 'payment', payment)]);
    expect(answers.get('pay')).toMatchObject({ type: 'payment', payment });
  });

  it('stores a multi_format answer with its format', () => {
    const value = { format: 'video', file_url: 'https://files.example.com/clip.webm' };
    const { answers } = checkAnswers(form, [answer('video', 'multi_format', value)]);
    expect(answers.get('video')).toMatchObject({ type: 'multi_format', multi_format: value });
  });

  it('refuses a question answered twice', () => {
    const { problems } = checkAnswers(form, [answer('short', 'text', 'a'), answer('short', 'text', 'b')]);
    expect(problems.map((p) => [p.code, p.field])).toEqual([['DUPLICATE_ANSWER', 'answers[1].field']]);
  });

  it('finds questions by id too, and stores answers in Typeform shape', () => {
    const single = form.fields.find((f) => f.ref === 'single')!;
    const { answers } = checkAnswers(form, [
      { field: { id: single.id }, type: 'choice', choice: { label: 'B' } },
    ]);
    expect(answers.get('single')).toEqual({
      field: { id: single.id, ref: 'single', type: 'multiple_choice' },
      type: 'choice',
      choice: { id: expect.any(String), ref: 'b', label: 'B' },
    });
  });
});
