import { pageTexts } from '@formline/respondent-page';
import { controlContext } from './control.fixture';
import { choices, field, formOf } from './page.fixture';
import { rankingListControl } from './ranking-list.control';

// A ranking reordered with its buttons: the order read, the focus kept on
// the moved choice, its new place announced.
describe('the ranking control', () => {
  const t = pageTexts('en');
  const ranking = field('rank', 'ranking', { properties: { choices: choices('a', 'b', 'c') } });

  const setup = () => {
    const context = controlContext(formOf([ranking]), t);
    const control = rankingListControl(ranking, { 'aria-labelledby': 'q-title' }, context);
    document.body.append(control.node);
    const button = (ref: string, direction: 'up' | 'down') =>
      control.node.querySelector<HTMLButtonElement>(
        `li[data-ref=${ref}] button[data-direction=${direction}]`,
      )!;
    return { control, context, button };
  };

  it('is unanswered until moved, then reads the order', () => {
    const { control, button } = setup();
    expect(control.reader.read()).toBeUndefined();
    button('c', 'up').click();
    expect(control.reader.read()?.choices?.refs).toEqual(['a', 'c', 'b']);
  });

  it('keeps the focus on the moved choice, on its other button once this one cannot move it further', () => {
    const { context, button } = setup();
    button('c', 'up').click();
    expect(document.activeElement).toBe(button('c', 'up'));
    expect(context.live.textContent).toBe('C: 2 of 3');
    button('c', 'up').click();
    // First now: its up button is disabled, so the focus is on its down button.
    expect(button('c', 'up').disabled).toBe(true);
    expect(document.activeElement).toBe(button('c', 'down'));
    expect(button('c', 'down').getAttribute('aria-label')).toBe('Move C down');
  });
});
