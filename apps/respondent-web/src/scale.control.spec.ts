import { pageTexts } from '@formline/respondent-page';
import { controlContext } from './control.fixture';
import { field, formOf } from './page.fixture';
import { scaleControl } from './scale.control';

// The steps each kind of scale offers, picked by their digit.
describe('the scale control', () => {
  const t = pageTexts('en');
  const steps = (question: ReturnType<typeof field>) =>
    [...scaleControl(question, {}, controlContext(formOf([question]), t)).node.querySelectorAll('input')].map(
      (input) => input.value,
    );

  it('offers 1 to steps for a rating, 0 to 10 for a Net Promoter Score, from 0 or 1 for an opinion scale', () => {
    expect(steps(field('r', 'rating', { properties: { steps: 3 } }))).toEqual(['1', '2', '3']);
    expect(steps(field('n', 'nps'))).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(steps(field('o', 'opinion_scale', { properties: { steps: 3, start_at_one: true } }))).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(steps(field('o', 'opinion_scale', { properties: { steps: 3 } }))).toEqual(['0', '1', '2']);
  });

  it('picks a step by its digit, and no step it lacks', () => {
    const question = field('r', 'rating', { properties: { steps: 5 } });
    const control = scaleControl(question, {}, controlContext(formOf([question]), t));
    expect(control.reader.key!('0')).toBe(false);
    expect(control.reader.key!('4')).toBe(true);
    expect(control.reader.read()).toMatchObject({ type: 'number', number: 4 });
  });
});
