import { pageTexts } from '@formline/respondent-page';
import { choiceGroupControl } from './choice-group.control';
import { controlContext } from './control.fixture';
import { choices, field, formOf } from './page.fixture';

// A multiple choice question's control: picked by click or letter, the
// "other" choice with its text, one or several choices.
describe('the choice group control', () => {
  const t = pageTexts('en');
  const question = field('plan', 'multiple_choice', { properties: { choices: choices('basic', 'pro') } });

  const setup = (multiple: boolean) => {
    const context = controlContext(formOf([question]), t);
    const control = choiceGroupControl(question, {}, context, {
      choices: choices('basic', 'pro'),
      multiple,
      allowOther: true,
    });
    document.body.append(control.node);
    return control;
  };

  it('picks one choice by its letter, the other one with its text', () => {
    const control = setup(false);
    expect(control.node.querySelector('[role=radiogroup]')).not.toBeNull();
    expect(control.reader.key!('b')).toBe(true);
    expect(control.reader.read()).toMatchObject({ type: 'choice', choice: { ref: 'pro', label: 'PRO' } });
    expect(control.reader.key!('z')).toBe(false);
    const other = control.node.querySelector<HTMLInputElement>('.other-text')!;
    other.value = 'Enterprise ';
    other.dispatchEvent(new Event('input'));
    expect(control.reader.read()).toMatchObject({ type: 'choice', choice: { other: 'Enterprise' } });
  });

  it('takes several as checkboxes, a letter toggling its choice', () => {
    const control = setup(true);
    expect(control.node.querySelector('[role=group]')!.hasAttribute('aria-required')).toBe(false);
    control.reader.key!('A');
    control.reader.key!('B');
    control.reader.key!('A');
    expect(control.reader.read()).toMatchObject({ type: 'choices', choices: { refs: ['pro'] } });
    control.reader.key!('B');
    expect(control.reader.read()).toBeUndefined();
  });
});
