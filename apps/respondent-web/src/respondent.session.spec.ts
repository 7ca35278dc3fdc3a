import { pageTexts } from '@formline/respondent-page';
import { choices, field, formOf } from './page.fixture';
import { ProgressStore } from './progress.store';
import { RespondentSession } from './respondent.session';

// One respondent's progress: kept across a reload when the form autosaves,
// the hidden fields it declares, and recall of what was answered.
describe("the respondent's session", () => {
  const t = pageTexts('en');
  const form = formOf(
    [
      field('name', 'short_text'),
      field('plan', 'multiple_choice', { properties: { choices: choices('pro') } }),
    ],
    { hidden: ['source'] },
  );
  const storage = () => {
    const stored = new Map<string, string>();
    return {
      stored,
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    };
  };
  const answer = (ref: string, type: string, value: Record<string, unknown>) => ({
    field: { id: ref, ref, type: 'short_text' },
    type,
    ...value,
  });

  it('keeps the answers and the path across a reload when the form autosaves, nothing when it does not', () => {
    const kept = storage();
    const session = new RespondentSession(form, t, new ProgressStore('f1', true, kept), '');
    session.confirm([], form.fields[0], [[form.fields[0], answer('name', 'text', { text: 'Ada' })]]);
    const key = session.progressKey();
    const again = new RespondentSession(form, t, new ProgressStore('f1', true, kept), '');
    expect(again.walk().at?.ref).toBe('plan');
    expect(again.progressKey()).toBe(key);
    expect(again.answersSoFar()).toEqual([{ field: { ref: 'name' }, type: 'text', text: 'Ada' }]);
    again.submitted();
    expect(kept.stored.size).toBe(0);

    const none = storage();
    new RespondentSession(form, t, new ProgressStore('f1', false, none), '').start();
    expect(none.stored.size).toBe(0);
  });

  it('takes only the hidden fields the form declares, each bounded, and recalls answers as text', () => {
    const session = new RespondentSession(
      form,
      t,
      new ProgressStore('f1', false, undefined),
      `?source=${'x'.repeat(3000)}&other=1`,
    );
    expect(Object.keys(session.hidden)).toEqual(['source']);
    expect(session.hidden.source).toHaveLength(2000);
    session.confirm([], form.fields[0], [[form.fields[0], answer('name', 'text', { text: 'A&B <i>' })]]);
    expect(session.recall('Hi {{field:name}}, {{field:plan}}!')).toBe('Hi A&B <i>, !');
    expect(session.recall('https://x.example/?n={{field:name}}', encodeURIComponent)).toBe(
      'https://x.example/?n=A%26B%20%3Ci%3E',
    );
  });
});
