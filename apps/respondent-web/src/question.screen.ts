import type { Field } from '@formline/form-definition';
import { isComposite } from '@formline/form-logic';
import { answerProblem } from './answer-problem.check';
import { stagedMedia } from './block-media.view';
import { el, focusFirst } from './element.builder';
import type { PageContext } from './page.context';
import { progressBar } from './progress-bar.view';
import { questionControl } from './question-control.factory';

// One block of the form: its number and title, its description and media,
// its control, the error of a broken rule, and the button that confirms it
// (Submit when the walk ends after it); the button back to the block before.
// Enter confirms (Shift+Enter is a new line in a long text); letters and
// digits pick options where no text is typed.
export function showQuestion(page: PageContext, field: Field, visited: readonly string[]): void {
  const { t, settings, session } = page;
  const ids = {
    title: `q-${field.id}-title`,
    description: `q-${field.id}-description`,
    error: `q-${field.id}-error`,
  };
  const properties = field.properties as Record<string, unknown>;
  const required = (field.validations as { required?: boolean } | undefined)?.required === true;
  const number = page.numbered.indexOf(field) + 1;
  const error = el('p', { id: ids.error, class: 'error', role: 'alert' });
  const description =
    typeof properties.description === 'string' ? session.recall(properties.description) : undefined;
  const describedBy = [description ? ids.description : '', ids.error].filter(Boolean).join(' ');
  const input = questionControl(field, { labelledBy: ids.title, describedBy }, required, page);
  const wouldEnd = (): boolean => !session.walkWith(field, input.reader.read()).at;
  const okLabel = () =>
    field.type === 'statement' || field.type === 'group'
      ? ((properties.button_text as string | undefined) ?? t.continue)
      : wouldEnd()
        ? t.submit
        : t.ok;
  const ok = el('button', { type: 'submit', class: 'primary' }, okLabel());
  const titleNode = el(
    'h1',
    { id: ids.title, class: 'title', tabindex: '-1' },
    settings.show_question_number !== false &&
      field.type !== 'statement' &&
      // The arrow points along the line: leftward on a right-to-left page.
      el('span', { class: 'number' }, `${number} ${document.documentElement.dir === 'rtl' ? '←' : '→'}`),
    ' ',
    session.recall(field.title),
    required && el('span', { class: 'required', 'aria-hidden': 'true' }, ' *'),
  );
  const media = stagedMedia(field, page.images, t);
  const formNode = el(
    'form',
    { class: 'screen block', novalidate: true, 'aria-labelledby': ids.title, 'data-ref': field.ref },
    titleNode,
    description && el('p', { id: ids.description, class: 'description' }, description),
    media.inline,
    input.node,
    error,
    el('div', { class: 'actions' }, ok, el('span', { class: 'hint', 'aria-hidden': 'true' }, t.pressEnter)),
  ) as HTMLFormElement;
  const answerNow = () => {
    const answer = input.reader.read();
    error.textContent = '';
    ok.textContent = okLabel();
    return answer;
  };
  formNode.addEventListener('input', answerNow);
  formNode.addEventListener('change', answerNow);
  formNode.addEventListener('submit', (event) => {
    event.preventDefault();
    const answer = input.reader.read();
    const inner = input.reader.inner?.() ?? [];
    const problem =
      field.type === 'statement' || field.type === 'group'
        ? undefined
        : isComposite(field)
          ? inner.map(([question, value]) => answerProblem(question, value, t)).find(Boolean)
          : answerProblem(field, answer, t);
    if (problem) {
      error.textContent = problem;
      formNode.querySelector('[aria-invalid]')?.setAttribute('aria-invalid', 'true');
      focusFirst(input.node);
      return;
    }
    session.confirm(visited, field, [[field, answer], ...inner]);
    page.partials.confirmed(field.ref);
    page.render();
  });
  formNode.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement;
    const choosing = target instanceof HTMLInputElement && ['radio', 'checkbox'].includes(target.type);
    if (event.key === 'Enter' && (choosing || (target.tagName === 'TEXTAREA' && !event.shiftKey))) {
      event.preventDefault();
      formNode.requestSubmit();
      return;
    }
    const typing =
      target.tagName === 'TEXTAREA' ||
      (target.tagName === 'INPUT' && !['radio', 'checkbox'].includes((target as HTMLInputElement).type));
    if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey && input.reader.key?.(event.key)) {
      event.preventDefault();
      answerNow();
    }
  });
  const back = el(
    'button',
    { type: 'button', class: 'nav', 'aria-label': t.back, disabled: visited.length === 0 },
    '↑',
  );
  back.addEventListener('click', () => {
    session.back(visited);
    page.render();
  });
  page.show(
    progressBar(page),
    media.placed,
    formNode,
    settings.hide_navigation !== true && el('nav', { class: 'navigation', 'aria-label': t.back }, back),
  );
  // Focus goes to the answer (its label is the question), or to the button of a statement.
  focusFirst(input.node.querySelector('input, select, textarea') ? input.node : formNode);
}
