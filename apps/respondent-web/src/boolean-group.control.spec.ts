import { pageTexts } from '@formline/respondent-page';
import { booleanGroupControl, initials } from './boolean-group.control';
import { controlContext } from './control.fixture';
import { field, formOf } from './page.fixture';

// Yes and No picked by the keys their words start with, where a keyboard types them.
describe('the yes/no control', () => {
  it('picks Yes and No by their initials in the form language, else by A and B', () => {
    expect(initials(['Yes', 'No'])).toEqual(['Y', 'N']);
    expect(initials(['Sí', 'No'])).toEqual(['S', 'N']);
    expect(initials(['はい', 'いいえ'])).toEqual(['A', 'B']);
    expect(initials(['Non', 'Nein'])).toEqual(['A', 'B']);
  });

  it('answers true or false, and a legal question with accept and decline picked by A and B', () => {
    const t = pageTexts('de');
    const yesNo = field('ok', 'yes_no');
    const legal = field('terms', 'legal');
    const context = controlContext(formOf([yesNo, legal]), t);
    const question = booleanGroupControl(yesNo, {}, context);
    expect(question.reader.key!('n')).toBe(true);
    expect(question.reader.read()).toMatchObject({ type: 'boolean', boolean: false });
    const terms = booleanGroupControl(legal, {}, context);
    expect(terms.node.textContent).toContain(t.accept);
    expect(terms.reader.key!('a')).toBe(true);
    expect(terms.reader.read()).toMatchObject({ type: 'boolean', boolean: true });
  });
});
