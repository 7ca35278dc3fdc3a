import type { Field } from '@formline/form-definition';
import { brokenAnswerRule, brokenRangeRule, brokenSelectionRule } from './answer-rules';

// The rules an answer keeps, decided once for the page and the service.
describe('the answer rules', () => {
  const field = (type: Field['type'], validations: Record<string, unknown> = {}): Field => ({
    id: 'f',
    ref: 'f',
    title: 'F',
    type,
    properties: {},
    validations,
  });

  it('names the broken rule with its limit', () => {
    expect(brokenAnswerRule(field('short_text', { max_length: 3 }), { type: 'text', text: 'abcd' })).toEqual({
      rule: 'tooLong',
      n: 3,
    });
    expect(
      brokenAnswerRule(field('short_text', { max_length: 3 }), { type: 'text', text: 'abc' }),
    ).toBeUndefined();
    expect(brokenAnswerRule(field('number', { min_value: 2 }), { type: 'number', number: 1 })).toEqual({
      rule: 'atLeast',
      n: 2,
    });
    expect(brokenRangeRule(field('number', { max_value: 2 }), 3)).toEqual({ rule: 'atMost', n: 2 });
    expect(brokenRangeRule(field('number'), Number.NaN)).toEqual({ rule: 'invalidNumber' });
    expect(brokenSelectionRule(field('multiple_choice', { min_selection: 2 }), 1)).toEqual({
      rule: 'pickAtLeast',
      n: 2,
    });
    expect(brokenSelectionRule(field('multiple_choice', { max_selection: 2 }), 3)).toEqual({
      rule: 'pickAtMost',
      n: 2,
    });
  });

  it.each([
    ['email', 'email', 'a@b', 'invalidEmail'],
    ['website', 'url', 'ftp://x.example', 'invalidUrl'],
    ['file_upload', 'file_url', 'javascript:alert(1)', 'invalidUrl'],
    ['phone_number', 'phone_number', '0123', 'invalidPhone'],
    ['date', 'date', '2026-02-30', 'invalidDate'],
  ] as const)('refuses a malformed %s', (type, answerType, value, rule) => {
    expect(brokenAnswerRule(field(type), { type: answerType, [answerType]: value })).toEqual({ rule });
  });

  it('takes only acceptance for a required legal question', () => {
    expect(brokenAnswerRule(field('legal', { required: true }), { type: 'boolean', boolean: false })).toEqual(
      {
        rule: 'acceptTerms',
      },
    );
    expect(brokenAnswerRule(field('legal'), { type: 'boolean', boolean: false })).toBeUndefined();
    expect(
      brokenAnswerRule(field('yes_no', { required: true }), { type: 'boolean', boolean: false }),
    ).toBeUndefined();
  });
});
