import { innerQuestions } from '@formline/form-logic';
import { el } from './element.builder';
import type { PageContext } from './page.context';
import { say } from './page-texts.format';

// How far the respondent is: the questions confirmed with an answer (a
// composite one with any of its inner answers), out of all, as the form's
// settings say (a proportion, or a percentage); none when the form hides it.
export function progressBar(
  page: Pick<PageContext, 'questions' | 'session' | 'settings' | 't'>,
): Node | undefined {
  const { questions, session, settings, t } = page;
  if (settings.show_progress_bar === false || questions.length === 0) return undefined;
  const answered = questions.filter(
    (field) =>
      session.isConfirmed(field.ref) &&
      [field, ...innerQuestions(field)].some((question) => session.answer(question.ref)),
  ).length;
  const percent = Math.round((answered / questions.length) * 100);
  const label =
    settings.progress_bar === 'percentage'
      ? say(t.percentAnswered, { n: percent })
      : say(t.answered, { n: answered, total: questions.length });
  const bar = el('div', {
    class: 'progress',
    role: 'progressbar',
    'aria-labelledby': 'progress-label',
    'aria-valuemin': '0',
    'aria-valuemax': String(questions.length),
    'aria-valuenow': String(answered),
    'aria-valuetext': label,
  });
  const fill = el('div', { class: 'progress-fill' });
  fill.style.width = `${percent}%`;
  bar.append(fill);
  return el(
    'div',
    { class: 'progress-wrap' },
    bar,
    el('p', { id: 'progress-label', class: 'progress-label' }, label),
  );
}
