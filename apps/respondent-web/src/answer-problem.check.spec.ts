import { pageTexts } from '@formline/respondent-page';
import { answerProblem } from './answer-problem.check';
import { field } from './page.fixture';

// The rules the service applies, told in the form's language before moving on.
describe("the page's check of an answer", () => {
  const base = (ref: string, type: string) => ({ field: { id: ref, ref, type }, type });

  it('says each broken rule in the page texts, with its limit', () => {
    const de = pageTexts('de');
    const seats = field('seats', 'number', { validations: { min_value: 1, max_value: 100 } });
    expect(answerProblem(seats, { ...base('seats', 'number'), number: 0 }, de)).toBe(
      de.atLeast.replace('{n}', '1'),
    );
    expect(answerProblem(seats, { ...base('seats', 'number'), number: 50 }, de)).toBeUndefined();
    const mail = field('mail', 'email', { validations: { required: true } });
    expect(answerProblem(mail, undefined, de)).toBe(de.required);
    expect(answerProblem(mail, { ...base('mail', 'email'), email: 'no' }, de)).toBe(de.invalidEmail);
    const terms = field('terms', 'legal', { validations: { required: true } });
    expect(answerProblem(terms, { ...base('terms', 'boolean'), boolean: false }, de)).toBe(de.acceptTerms);
  });

  it('counts the "other" choice among the picked ones', () => {
    const en = pageTexts('en');
    const tags = field('tags', 'multiple_choice', { validations: { min_selection: 2, max_selection: 2 } });
    const picked = (refs: string[], other?: string) => ({
      ...base('tags', 'choices'),
      choices: { ids: refs, refs, labels: refs, ...(other !== undefined ? { other } : {}) },
    });
    expect(answerProblem(tags, picked(['a']), en)).toBe('Choose at least 2');
    expect(answerProblem(tags, picked(['a'], 'x'), en)).toBeUndefined();
    expect(answerProblem(tags, picked(['a', 'b'], 'x'), en)).toBe('Choose at most 2');
  });
});
