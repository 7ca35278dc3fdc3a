import type { Choice, Field, ThankYouScreen } from '@formline/form-definition';
import {
  innerQuestions,
  isComposite,
  respondentBlocks,
  type StoredAnswer,
  stepThroughForm,
  valueOf,
} from '@formline/form-logic';
import { fileUploadControl } from './file-upload.client';
import type { PageData } from '../page-data';
import { answerProblem, toSubmitted } from './answer-check.client';
import { progressSender } from './partial-progress.client';
import { blockMedia } from './layout.client';
import { description as altText, picture } from './picture.client';
import { mediaRecorderControl } from './media-recorder.client';
import { videoCard } from './video.client';

// The respondent's page, in the browser: one block at a time, the form's logic
// deciding the next (the very code the responses service replays a submission
// with, from libs/form-logic), then the submission and the ending. Everything
// from the form is put on the page as text nodes, never as HTML.

const data = JSON.parse(document.getElementById('form-data')!.textContent) as PageData;
const { form, texts: t } = data;
const settings = form.settings as {
  autosave_progress?: boolean;
  progress_bar?: 'percentage' | 'proportion';
  show_progress_bar?: boolean;
  show_time_to_complete?: boolean;
  show_number_of_submissions?: boolean;
  show_question_number?: boolean;
  show_key_hint_on_choices?: boolean;
  hide_navigation?: boolean;
  redirect_after_submit_url?: string;
};
const app = document.getElementById('app')!;
const live = document.getElementById('live')!;

const blocks = respondentBlocks(form.fields);
const questions = blocks.filter((block) => block.type !== 'statement' && block.type !== 'group');
const numbered = blocks.filter((block) => block.type !== 'statement');

// What the respondent did, kept in localStorage until submitted when the form
// autosaves: answers by field ref, the blocks confirmed (the path so far), the
// idempotency key of the submission (so a retry after a reload counts once).
interface Progress {
  answers: Record<string, StoredAnswer>;
  confirmed: string[];
  started: boolean;
  landedAt: string;
  key?: string;
}
const storageKey = `formline:${data.formId}`;
const autosave = settings.autosave_progress !== false;
let progress: Progress = restore() ?? fresh();
const hidden = readHidden();
let submitting = false;
// Partial responses: the answers so far, under the progress key that the
// final submission names too (kept with the progress, so a reload keeps it).
const partials = progressSender({
  url: `${data.submitUrl}/partial`,
  settings: form.settings,
  body: () => ({
    progress_key: progressKey(),
    landed_at: progress.landedAt,
    hidden,
    answers: answersSoFar(),
  }),
});
addEventListener('pagehide', () => partials.flush());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') partials.flush();
});

function progressKey(): string {
  if (!progress.key) {
    progress.key = crypto.randomUUID();
    save();
  }
  return progress.key;
}

// The answers on the respondent's path through the blocks confirmed so far.
function answersSoFar() {
  return walk().visited.flatMap((ref) => (progress.answers[ref] ? [toSubmitted(progress.answers[ref])] : []));
}

function fresh(): Progress {
  return { answers: {}, confirmed: [], started: false, landedAt: new Date().toISOString() };
}

function restore(): Progress | undefined {
  if (!autosave) return undefined;
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as Progress | null;
    const ok =
      saved !== null &&
      typeof saved === 'object' &&
      typeof saved.answers === 'object' &&
      Array.isArray(saved.confirmed) &&
      typeof saved.landedAt === 'string';
    return ok ? saved : undefined;
  } catch {
    return undefined;
  }
}

function save(): void {
  if (!autosave) return;
  try {
    localStorage.setItem(storageKey, JSON.stringify(progress));
  } catch {
    // Storage full or refused (private browsing): the page works without it.
  }
}

function forget(): void {
  try {
    localStorage.removeItem(storageKey);
  } catch {
    // Nothing was stored.
  }
}

// Hidden fields come from the address's query (?name=value), only those the form declares.
function readHidden(): Record<string, string> {
  const query = new URLSearchParams(location.search);
  const values: Record<string, string> = {};
  for (const name of form.hidden) {
    const value = query.get(name);
    if (value !== null) values[name] = value.slice(0, 2000);
  }
  return values;
}

// The walk of libs/form-logic over the blocks confirmed so far: where the
// respondent is now, or the ending they reached.
function walk(confirmed: readonly string[] = progress.confirmed) {
  const done = new Set(confirmed);
  return stepThroughForm(
    form,
    {
      answer: (ref) => {
        const answer = done.has(ref) ? progress.answers[ref] : undefined;
        return answer && valueOf(answer);
      },
      hidden: (name) => (Object.hasOwn(hidden, name) ? hidden[name] : undefined),
    },
    (block) => !done.has(block.ref),
  );
}

// Recall: `{{field:ref}}`, `{{hidden:name}}` and `{{var:score}}` in the
// form's texts read the answers given so far (as text, like everything else);
// in a redirect address, each value goes in encoded (`encode`).
function recall(text: string, encode: (value: string) => string = (value) => value): string {
  return text.replace(/\{\{(field|hidden|var):([\w-]{1,255})\}\}/g, (_match, kind: string, name: string) =>
    encode(recalled(kind, name)),
  );
}

function recalled(kind: string, name: string): string {
  if (kind === 'hidden') return Object.hasOwn(hidden, name) ? hidden[name] : '';
  if (kind === 'var') return String(walk().variables[name as 'score' | 'price'] ?? '');
  const answer = progress.confirmed.includes(name) ? progress.answers[name] : undefined;
  const value = answer && valueOf(answer);
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  if (Array.isArray(value)) return value.map((choice) => choice.label).join(', ');
  return typeof value === 'object' ? value.label : String(value);
}

type Child = Node | string | undefined | false;
function el(
  tag: string,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) node.setAttribute(name, '');
    else if (typeof value === 'string') node.setAttribute(name, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// A text naming a choice: the label as it is (a function, so `$&` in it stays text).
const naming = (text: string, label: string) => text.replace('{label}', () => label);

const say = (text: string, values: Record<string, number>) =>
  text.replace(/\{(n|total)\}/g, (_match, name: string) => String(values[name]));

// The screen's children; a layout's picture among them names its layout on <main> for the style.
function show(...children: Child[]): void {
  const nodes = children.filter((child): child is Node | string => Boolean(child));
  const placed = nodes.find(
    (node): node is HTMLElement => node instanceof HTMLElement && node.classList.contains('layout-picture'),
  );
  app.dataset.large = placed?.dataset.large ?? '';
  app.dataset.small = placed?.dataset.small ?? '';
  app.replaceChildren(...nodes);
}

function focusFirst(container: HTMLElement): void {
  const target =
    container.querySelector<HTMLElement>('[data-autofocus]') ??
    container.querySelector<HTMLElement>(
      'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])',
    );
  target?.focus();
}

function render(): void {
  const welcome = form.welcome_screens[0];
  if (!progress.started && welcome) return renderWelcome(welcome);
  const path = walk();
  if (path.at) return renderBlock(path.at, path.visited);
  void submit(path.ending ?? form.thankyou_screens[0]);
}

function renderWelcome(screen: (typeof form.welcome_screens)[number]): void {
  const properties = screen.properties as {
    description?: string;
    show_button?: boolean;
    button_text?: string;
  };
  const facts: string[] = [];
  if (settings.show_time_to_complete) facts.push(say(t.minutes, { n: minutesToComplete() }));
  if (settings.show_number_of_submissions && data.submissionCount !== undefined)
    facts.push(say(t.submissions, { n: data.submissionCount }));
  const start = el(
    'button',
    { type: 'button', class: 'primary', 'data-autofocus': true },
    properties.button_text ?? t.start,
  );
  start.addEventListener('click', () => {
    progress.started = true;
    save();
    render();
  });
  const media = stage(screen);
  const section = el(
    'section',
    { class: 'screen welcome', 'aria-labelledby': 'screen-title' },
    el('h1', { id: 'screen-title', tabindex: '-1' }, recall(screen.title)),
    properties.description && el('p', { class: 'description' }, recall(properties.description)),
    media.inline,
    properties.show_button !== false &&
      el('div', { class: 'actions' }, start, el('span', { class: 'hint' }, t.pressEnter)),
    facts.length > 0 && el('p', { class: 'facts' }, facts.join(' · ')),
  );
  section.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.target === section.querySelector('h1')) start.click();
  });
  show(media.placed, section);
  focusFirst(section);
}

// About 10 seconds a question, 30 for a long text, rounded up to minutes.
function minutesToComplete(): number {
  const seconds = questions.reduce((sum, field) => sum + (field.type === 'long_text' ? 30 : 10), 0);
  return Math.max(1, Math.ceil(seconds / 60));
}

interface Reader {
  // The answer as entered now (undefined: not answered).
  read(): StoredAnswer | undefined;
  // A composite block's answers, one per inner field (undefined: not answered).
  inner?(): Array<[Field, StoredAnswer | undefined]>;
  // Keys A, B, C... (or digits on scales) pick an option.
  key?(key: string): boolean;
}

function renderBlock(field: Field, visited: readonly string[]): void {
  const ids = {
    title: `q-${field.id}-title`,
    description: `q-${field.id}-description`,
    error: `q-${field.id}-error`,
  };
  const properties = field.properties as Record<string, unknown>;
  const required = (field.validations as { required?: boolean } | undefined)?.required === true;
  const number = numbered.indexOf(field) + 1;
  const error = el('p', { id: ids.error, class: 'error', role: 'alert' });
  const description = typeof properties.description === 'string' ? recall(properties.description) : undefined;
  const describedBy = [description ? ids.description : '', ids.error].filter(Boolean).join(' ');
  const input = readerFor(field, ids.title, describedBy, required);
  const wouldEnd = (): boolean => !walkWith(field, input.reader.read()).at;
  const okLabel = () =>
    field.type === 'statement' || field.type === 'group' ? buttonText(field) : wouldEnd() ? t.submit : t.ok;
  const ok = el('button', { type: 'submit', class: 'primary' }, okLabel());
  const titleNode = el(
    'h1',
    { id: ids.title, class: 'title', tabindex: '-1' },
    settings.show_question_number !== false &&
      field.type !== 'statement' &&
      // The arrow points along the line: leftward on a right-to-left page.
      el('span', { class: 'number' }, `${number} ${document.documentElement.dir === 'rtl' ? '←' : '→'}`),
    ' ',
    recall(field.title),
    required && el('span', { class: 'required', 'aria-hidden': 'true' }, ' *'),
  );
  const media = stage(field);
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
    for (const [question, value] of [[field, answer] as const, ...inner]) {
      if (value) progress.answers[question.ref] = value;
      else delete progress.answers[question.ref];
    }
    progress.confirmed = [...visited, field.ref];
    save();
    partials.confirmed(field.ref);
    render();
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
    // Back to the block before: it and everything after it are open again
    // (their answers stay as they were, to change or confirm).
    progress.confirmed = visited.slice(0, -1);
    save();
    render();
  });
  show(
    progressBar(),
    media.placed,
    formNode,
    settings.hide_navigation !== true && el('nav', { class: 'navigation', 'aria-label': t.back }, back),
  );
  // Focus goes to the answer (its label is the question), or to the button of a statement.
  focusFirst(input.node.querySelector('input, select, textarea') ? input.node : formNode);
}

// The media of a question or screen (client/layout.client.ts says where):
// the layout's picture or video link, a figure placed before the screen, and
// what shows under the title (a picture, or a video's link). A picture's alternative
// text is the form's description of it.
function stage(block: Pick<Field, 'attachment' | 'layout'>): { placed?: HTMLElement; inline?: Node } {
  const { placed, inline } = blockMedia(block);
  const placedPicture =
    placed &&
    (placed.attachment.type === 'video'
      ? videoCard(placed.attachment, t, true)
      : picture(placed.attachment, data.images, 'attachment', altText(placed.attachment)));
  const inlineNode =
    inline?.type === 'video'
      ? videoCard(inline, t)
      : picture(inline, data.images, 'attachment', altText(inline));
  return {
    placed:
      placed && placedPicture
        ? el(
            'figure',
            { class: 'layout-picture', 'data-large': placed.large, 'data-small': placed.small },
            placedPicture,
          )
        : undefined,
    inline:
      inline?.type === 'video' ? inlineNode : inlineNode && el('figure', { class: 'attachment' }, inlineNode),
  };
}

function buttonText(field: Field): string {
  const text = (field.properties as { button_text?: string }).button_text;
  return text ?? t.continue;
}

// The walk as if this block were confirmed with this answer: does it end there?
function walkWith(field: Field, answer: StoredAnswer | undefined) {
  const saved = progress.answers[field.ref];
  if (answer) progress.answers[field.ref] = answer;
  else delete progress.answers[field.ref];
  const path = walk([...walk().visited, field.ref]);
  if (saved) progress.answers[field.ref] = saved;
  else delete progress.answers[field.ref];
  return path;
}

function progressBar(): Node | undefined {
  if (settings.show_progress_bar === false || questions.length === 0) return undefined;
  const answered = questions.filter(
    (field) =>
      progress.confirmed.includes(field.ref) &&
      [field, ...innerQuestions(field)].some((question) => progress.answers[question.ref]),
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

function answerBase(field: Field) {
  return { field: { id: field.id, ref: field.ref, type: field.type } };
}

function readerFor(
  field: Field,
  labelledBy: string,
  describedBy: string,
  required: boolean,
): { node: HTMLElement; reader: Reader } {
  const saved = progress.answers[field.ref];
  const aria = {
    'aria-labelledby': labelledBy,
    'aria-describedby': describedBy,
    'aria-required': required ? 'true' : undefined,
    'aria-invalid': 'false',
  };
  const properties = field.properties as Record<string, unknown>;
  const validations = (field.validations ?? {}) as Record<string, number | undefined>;
  const textInput = (type: string, key: 'text' | 'email' | 'url' | 'phone_number' | 'date', extra = {}) => {
    const input = el(type === 'textarea' ? 'textarea' : 'input', {
      ...(type === 'textarea' ? { rows: '3' } : { type }),
      id: `q-${field.id}-input`,
      class: 'text',
      placeholder: type === 'date' ? undefined : t.typeHere,
      autocomplete: type === 'email' ? 'email' : type === 'tel' ? 'tel' : 'off',
      ...aria,
      ...extra,
    }) as HTMLInputElement;
    const previous = saved?.[key];
    if (typeof previous === 'string') input.value = previous;
    return {
      node: el('div', { class: 'answer' }, input),
      reader: {
        read: (): StoredAnswer | undefined => {
          let value = input.value.trim();
          if (key === 'phone_number') value = value.replace(/[\s().-]/g, '');
          return value === '' ? undefined : { ...answerBase(field), type: key, [key]: value };
        },
      },
    };
  };
  switch (field.type) {
    case 'short_text':
      return textInput('text', 'text', {
        maxlength: validations.max_length ? String(validations.max_length) : undefined,
      });
    case 'long_text':
      return textInput('textarea', 'text', {
        maxlength: validations.max_length ? String(validations.max_length) : undefined,
      });
    case 'email':
      return textInput('email', 'email');
    case 'website':
      return textInput('url', 'url', { inputmode: 'url' });
    case 'phone_number':
      return textInput('tel', 'phone_number', { inputmode: 'tel' });
    case 'date':
      return textInput('date', 'date');
    case 'number': {
      const input = el('input', {
        type: 'number',
        step: 'any',
        inputmode: 'decimal',
        id: `q-${field.id}-input`,
        class: 'text',
        placeholder: t.typeHere,
        min: validations.min_value !== undefined ? String(validations.min_value) : undefined,
        max: validations.max_value !== undefined ? String(validations.max_value) : undefined,
        ...aria,
      }) as HTMLInputElement;
      if (typeof saved?.number === 'number') input.value = String(saved.number);
      return {
        node: el('div', { class: 'answer' }, input),
        reader: {
          read: () =>
            input.value.trim() === ''
              ? undefined
              : { ...answerBase(field), type: 'number', number: Number(input.value) },
        },
      };
    }
    case 'dropdown': {
      const choices = field.properties.choices ?? [];
      const select = el(
        'select',
        { id: `q-${field.id}-input`, class: 'text', ...aria },
        el('option', { value: '' }, t.choose),
        ...choices.map((choice) => el('option', { value: choice.ref }, choice.label)),
      ) as HTMLSelectElement;
      if (saved?.choice?.ref) select.value = saved.choice.ref;
      return {
        node: el('div', { class: 'answer' }, select),
        reader: {
          read: () => {
            const choice = choices.find((c) => c.ref === select.value);
            return choice ? { ...answerBase(field), type: 'choice', choice: pick(choice) } : undefined;
          },
        },
      };
    }
    case 'picture_choice':
      // Each choice a card with its picture (from the page's own origin) above its label.
      return choiceGroup(
        field,
        aria,
        (field.properties.choices ?? []).map((choice) => ({
          ...choice,
          label: choice.label || choice.attachment?.properties?.description || choice.ref,
        })),
        properties.allow_multiple_selection === true,
        properties.allow_other_choice === true,
        {
          supersized: properties.supersized === true,
          showLabels: properties.show_labels !== false,
        },
      );
    case 'ranking':
      return rankingList(field, aria);
    case 'matrix':
      return matrixTable(field, aria);
    case 'contact_info':
    case 'address':
      return lines(field);
    case 'calendly':
      return bookingLink(field, aria);
    case 'payment':
      return paymentRecord(field, aria);
    case 'file_upload':
      return fileUploadControl(field, { submitUrl: data.submitUrl, aria, saved, texts: t });
    case 'multi_format': {
      // A recording (video or audio) or a typed answer, whichever came last.
      const text = textInput('textarea', 'text');
      const area = text.node.firstChild as HTMLTextAreaElement;
      if (saved?.multi_format?.text) area.value = saved.multi_format.text;
      const recorder = mediaRecorderControl(field, {
        submitUrl: data.submitUrl,
        saved: saved?.multi_format,
        texts: t,
        onRecorded: () => {
          area.value = '';
        },
      });
      area.addEventListener('input', () => recorder.clear());
      text.node.append(recorder.node);
      return {
        node: text.node,
        reader: {
          read: (): StoredAnswer | undefined => {
            const recording = recorder.recording();
            if (recording)
              return {
                ...answerBase(field),
                type: 'multi_format',
                multi_format: { format: recording.format, file_url: recording.fileUrl },
              };
            const value = area.value.trim();
            return value === ''
              ? undefined
              : { ...answerBase(field), type: 'multi_format', multi_format: { format: 'text', text: value } };
          },
        },
      };
    }
    case 'multiple_choice':
      return choiceGroup(
        field,
        aria,
        field.properties.choices ?? [],
        properties.allow_multiple_selection === true,
        properties.allow_other_choice === true,
      );
    case 'yes_no':
    case 'legal': {
      const labels = field.type === 'yes_no' ? [t.yes, t.no] : [t.accept, t.decline];
      return booleanGroup(field, aria, labels);
    }
    case 'rating':
    case 'opinion_scale':
    case 'nps':
      return scale(field, aria);
    case 'statement':
    case 'group':
      // Nothing to answer: the block has only its button.
      return { node: el('div', { class: 'answer empty' }), reader: { read: () => undefined } };
  }
}

const pick = (choice: Choice) => ({ id: choice.id, ref: choice.ref, label: choice.label });
const letter = (i: number) => String.fromCharCode(65 + i);
const keyHints = () => settings.show_key_hint_on_choices !== false;

function optionLabel(
  input: HTMLInputElement,
  hint: string | undefined,
  text: string,
  image?: { node: Node | undefined; showLabel: boolean },
): HTMLElement {
  const row = [
    input,
    hint !== undefined && keyHints() && el('span', { class: 'key', 'aria-hidden': 'true' }, hint),
    // A picture choice may hide its label: still read aloud, as the choice's name.
    el('span', { class: image?.showLabel === false ? 'option-text sr-only' : 'option-text' }, text),
  ];
  if (!image) return el('label', { class: 'option' }, ...row);
  return el(
    'label',
    { class: 'option picture-option' },
    image.node && el('span', { class: 'picture-frame' }, image.node),
    el('span', { class: 'picture-row' }, ...row),
  );
}

function choiceGroup(
  field: Field,
  aria: Record<string, string | undefined>,
  choices: Choice[],
  multiple: boolean,
  allowOther: boolean,
  pictures?: { supersized: boolean; showLabels: boolean },
): { node: HTMLElement; reader: Reader } {
  const saved = progress.answers[field.ref];
  const name = `q-${field.id}`;
  const type = multiple ? 'checkbox' : 'radio';
  const inputs = choices.map((choice) => {
    const input = el('input', { type, name, value: choice.ref }) as HTMLInputElement;
    input.checked = multiple
      ? (saved?.choices?.refs.includes(choice.ref) ?? false)
      : saved?.choice?.ref === choice.ref;
    return input;
  });
  const otherBox = el('input', { type, name, value: '' }) as HTMLInputElement;
  const otherText = el('input', {
    type: 'text',
    class: 'text other-text',
    'aria-label': t.other,
    placeholder: t.other,
  }) as HTMLInputElement;
  const savedOther = multiple ? saved?.choices?.other : saved?.choice?.other;
  if (savedOther !== undefined) {
    otherBox.checked = true;
    otherText.value = savedOther;
  }
  otherText.addEventListener('input', () => {
    otherBox.checked = otherText.value !== '';
  });
  const options = choices.map((choice, i) =>
    optionLabel(
      inputs[i],
      letter(i),
      choice.label,
      pictures && {
        // The label names the choice; the picture adds nothing to read aloud.
        node: picture(choice.attachment, data.images, pictures.supersized ? 'supersized' : 'choice', ''),
        showLabel: pictures.showLabels,
      },
    ),
  );
  if (allowOther)
    options.push(
      el('div', { class: 'option other' }, optionLabel(otherBox, letter(choices.length), t.other), otherText),
    );
  const layout = pictures
    ? pictures.supersized
      ? 'options pictures supersized'
      : 'options pictures'
    : 'options';
  // A group of checkboxes takes no aria-required (ARIA allows it on radio groups only).
  const group = el(
    'div',
    {
      role: multiple ? 'group' : 'radiogroup',
      class: layout,
      ...aria,
      ...(multiple ? { 'aria-required': undefined } : {}),
    },
    ...options,
  );
  const all = allowOther ? [...inputs, otherBox] : inputs;
  return {
    node: el('div', { class: 'answer' }, group),
    reader: {
      read: (): StoredAnswer | undefined => {
        const picked = choices.filter((_choice, i) => inputs[i].checked);
        const other =
          allowOther && otherBox.checked && otherText.value.trim() !== ''
            ? otherText.value.trim()
            : undefined;
        if (multiple) {
          if (picked.length === 0 && other === undefined) return undefined;
          return {
            ...answerBase(field),
            type: 'choices',
            choices: {
              ids: picked.map((c) => c.id),
              refs: picked.map((c) => c.ref),
              labels: picked.map((c) => c.label),
              ...(other !== undefined ? { other } : {}),
            },
          };
        }
        if (picked[0]) return { ...answerBase(field), type: 'choice', choice: pick(picked[0]) };
        return other !== undefined ? { ...answerBase(field), type: 'choice', choice: { other } } : undefined;
      },
      key: (key) => {
        const index = key.length === 1 ? key.toUpperCase().charCodeAt(0) - 65 : -1;
        const input = all[index];
        if (!input) return false;
        input.checked = multiple ? !input.checked : true;
        if (input === otherBox) otherText.focus();
        else input.focus();
        return true;
      },
    },
  };
}

function booleanGroup(field: Field, aria: Record<string, string | undefined>, labels: string[]) {
  const saved = progress.answers[field.ref]?.boolean;
  const name = `q-${field.id}`;
  const inputs = [true, false].map((value) => {
    const input = el('input', { type: 'radio', name, value: String(value) }) as HTMLInputElement;
    input.checked = saved === value;
    return input;
  });
  const hints = field.type === 'yes_no' ? initials(labels) : ['A', 'B'];
  return {
    node: el(
      'div',
      { class: 'answer' },
      el(
        'div',
        { role: 'radiogroup', class: 'options', ...aria },
        ...inputs.map((input, i) => optionLabel(input, hints[i], labels[i])),
      ),
    ),
    reader: {
      read: (): StoredAnswer | undefined => {
        const index = inputs.findIndex((input) => input.checked);
        return index < 0 ? undefined : { ...answerBase(field), type: 'boolean', boolean: index === 0 };
      },
      key: (key: string) => {
        const index = hints.indexOf(key.toUpperCase());
        if (index < 0) return false;
        inputs[index].checked = true;
        inputs[index].focus();
        return true;
      },
    },
  };
}

// Yes and No picked by their initials (Y/N, S/N, J/N...) where a keyboard
// types them: two different letters that have a case. Else (はい/いいえ, 是/否) A and B.
function initials(labels: string[]): string[] {
  const [yes, no] = labels.map((label) => label.charAt(0).toUpperCase());
  const typeable = (letter: string) => letter.toLowerCase() !== letter;
  return yes !== no && typeable(yes) && typeable(no) ? [yes, no] : ['A', 'B'];
}

// A Calendly question: Calendly's scheduler is third-party content the page
// never loads. The respondent books on Calendly's own page (the application's
// address, in a new tab) and gives the booking's link, the answer Typeform
// stores, in a field labelled as such.
function bookingLink(field: Field, aria: Record<string, string | undefined>) {
  const scheduler = field.application?.iframe_url;
  const labelId = `q-${field.id}-booking`;
  const hintId = `q-${field.id}-booking-hint`;
  const input = el('input', {
    type: 'url',
    id: `q-${field.id}-input`,
    class: 'text',
    inputmode: 'url',
    autocomplete: 'url',
    ...aria,
    // Named by the question and what it asks: the booking's link.
    'aria-labelledby': `${aria['aria-labelledby']} ${labelId}`,
    'aria-describedby': [hintId, aria['aria-describedby']].filter(Boolean).join(' '),
  }) as HTMLInputElement;
  const saved = progress.answers[field.ref]?.url;
  if (saved) input.value = saved;
  return {
    node: el(
      'div',
      { class: 'answer booking' },
      httpUrl(scheduler) &&
        el(
          'a',
          { class: 'button secondary', href: scheduler, target: '_blank', rel: 'noopener noreferrer' },
          t.bookTime,
          el('span', { class: 'sr-only' }, ` (${t.newTab})`),
        ),
      el('label', { id: labelId, for: input.id, class: 'line-label' }, t.bookingUrl),
      input,
      el('p', { id: hintId, class: 'note' }, t.bookingHint),
    ),
    reader: {
      read: (): StoredAnswer | undefined => {
        const value = input.value.trim();
        return value === '' ? undefined : { ...answerBase(field), type: 'url', url: value };
      },
    },
  };
}

function scale(field: Field, aria: Record<string, string | undefined>) {
  const properties = field.properties as {
    steps?: number;
    start_at_one?: boolean;
    labels?: Record<string, string>;
  };
  // Net Promoter Score: always 0 to 10.
  const steps = field.type === 'nps' ? 11 : (properties.steps ?? (field.type === 'rating' ? 5 : 11));
  const start =
    field.type === 'rating' || (field.type === 'opinion_scale' && properties.start_at_one === true) ? 1 : 0;
  const end = field.type === 'rating' ? steps : start + steps - 1;
  const saved = progress.answers[field.ref]?.number;
  const name = `q-${field.id}`;
  const values = Array.from({ length: end - start + 1 }, (_v, i) => start + i);
  const inputs = values.map((value) => {
    const input = el('input', { type: 'radio', name, value: String(value) }) as HTMLInputElement;
    input.checked = saved === value;
    return input;
  });
  const labels = properties.labels ?? {};
  return {
    node: el(
      'div',
      { class: 'answer' },
      el(
        'div',
        { role: 'radiogroup', class: `options scale ${field.type}`, ...aria },
        ...inputs.map((input, i) =>
          optionLabel(input, undefined, field.type === 'rating' ? `${values[i]} ★` : String(values[i])),
        ),
      ),
      (labels.left || labels.center || labels.right) &&
        el(
          'p',
          { class: 'scale-labels' },
          el('span', {}, labels.left ?? ''),
          el('span', {}, labels.center ?? ''),
          el('span', {}, labels.right ?? ''),
        ),
    ),
    reader: {
      read: (): StoredAnswer | undefined => {
        const index = inputs.findIndex((input) => input.checked);
        return index < 0 ? undefined : { ...answerBase(field), type: 'number', number: values[index] };
      },
      key: (key: string) => {
        const index = values.indexOf(Number(key));
        if (!/^\d$/.test(key) || index < 0) return false;
        inputs[index].checked = true;
        inputs[index].focus();
        return true;
      },
    },
  };
}

// A ranking: every choice in a list the respondent reorders with the buttons
// beside each (keyboard and screen readers included); answered once moved.
// After a move the focus stays with the moved choice, on the button that
// moved it while that one can move it further, else on its other button (a
// disabled button holds no focus), and its new place is announced.
function rankingList(field: Field, aria: Record<string, string | undefined>) {
  const choices = field.properties.choices ?? [];
  const saved = progress.answers[field.ref]?.choices?.refs;
  let order = saved ? saved.flatMap((ref) => choices.filter((choice) => choice.ref === ref)) : [...choices];
  let moved = saved !== undefined;
  // A list takes no aria-required nor aria-invalid: it is named and described only.
  const list = el('ol', {
    class: 'options ranking',
    'aria-labelledby': aria['aria-labelledby'],
    'aria-describedby': aria['aria-describedby'],
  });
  const draw = (focus?: { ref: string; direction: 'up' | 'down' }) => {
    const rows = order.map((choice, i) => {
      const button = (direction: 'up' | 'down', disabled: boolean) => {
        const node = el(
          'button',
          {
            type: 'button',
            class: 'move',
            'aria-label': naming(direction === 'up' ? t.moveUp : t.moveDown, choice.label),
            'data-direction': direction,
            disabled,
          },
          direction === 'up' ? '↑' : '↓',
        );
        node.addEventListener('click', () => move(i, direction));
        return node;
      };
      return el(
        'li',
        { class: 'option rank', 'data-ref': choice.ref },
        el('span', { class: 'key', 'aria-hidden': 'true' }, String(i + 1)),
        el('span', { class: 'option-text' }, choice.label),
        button('up', i === 0),
        button('down', i === order.length - 1),
      );
    });
    list.replaceChildren(...rows);
    if (!focus) return;
    const row = rows[order.findIndex((choice) => choice.ref === focus.ref)];
    const buttons = [...row.querySelectorAll<HTMLButtonElement>('button')];
    const same = buttons.find((button) => button.dataset.direction === focus.direction);
    (same && !same.disabled ? same : buttons.find((button) => !button.disabled))?.focus();
  };
  const move = (from: number, direction: 'up' | 'down') => {
    const to = direction === 'up' ? from - 1 : from + 1;
    if (to < 0 || to >= order.length) return;
    const next = [...order];
    [next[from], next[to]] = [next[to], next[from]];
    order = next;
    moved = true;
    draw({ ref: next[to].ref, direction });
    live.textContent = naming(say(t.rankedAt, { n: to + 1, total: order.length }), next[to].label);
    list.dispatchEvent(new Event('change', { bubbles: true }));
  };
  draw();
  return {
    node: el('div', { class: 'answer' }, list),
    reader: {
      read: (): StoredAnswer | undefined =>
        moved
          ? {
              ...answerBase(field),
              type: 'choices',
              choices: {
                ids: order.map((c) => c.id),
                refs: order.map((c) => c.ref),
                labels: order.map((c) => c.label),
              },
            }
          : undefined,
    },
  };
}

// A matrix: one row per inner question, its choices as columns; each row is
// a radio group (checkboxes when it takes several), labelled by its row.
function matrixTable(field: Field, aria: Record<string, string | undefined>) {
  const rows = innerQuestions(field);
  const columns = rows[0]?.properties.choices ?? [];
  const readers = rows.map((row) => {
    const multiple =
      (row.properties as { allow_multiple_selection?: boolean }).allow_multiple_selection === true;
    const saved = progress.answers[row.ref];
    const rowId = `q-${row.id}-row`;
    const inputs = (row.properties.choices ?? []).map((choice) => {
      const input = el('input', {
        type: multiple ? 'checkbox' : 'radio',
        name: `q-${row.id}`,
        value: choice.ref,
        'aria-label': `${row.title}: ${choice.label}`,
      }) as HTMLInputElement;
      input.checked = multiple
        ? (saved?.choices?.refs.includes(choice.ref) ?? false)
        : saved?.choice?.ref === choice.ref;
      return input;
    });
    const tr = el(
      'tr',
      { role: multiple ? 'group' : 'radiogroup', 'aria-labelledby': rowId },
      el('th', { scope: 'row', id: rowId }, recall(row.title)),
      ...inputs.map((input) => el('td', {}, input)),
    );
    const read = (): StoredAnswer | undefined => {
      const picked = (row.properties.choices ?? []).filter((_c, i) => inputs[i].checked);
      if (picked.length === 0) return undefined;
      return multiple
        ? {
            ...answerBase(row),
            type: 'choices',
            choices: {
              ids: picked.map((c) => c.id),
              refs: picked.map((c) => c.ref),
              labels: picked.map((c) => c.label),
            },
          }
        : { ...answerBase(row), type: 'choice', choice: pick(picked[0]) };
    };
    return { row, tr, read };
  });
  const table = el(
    'table',
    {
      class: 'matrix',
      'aria-labelledby': aria['aria-labelledby'],
      'aria-describedby': aria['aria-describedby'],
    },
    el(
      'thead',
      {},
      el('tr', {}, el('td', {}), ...columns.map((column) => el('th', { scope: 'col' }, column.label))),
    ),
    el('tbody', {}, ...readers.map((reader) => reader.tr)),
  );
  return {
    node: el('div', { class: 'answer' }, table),
    reader: {
      read: () => undefined,
      inner: () => readers.map(({ row, read }): [Field, StoredAnswer | undefined] => [row, read()]),
    },
  };
}

// The lines of a contact_info or address block: one labelled input each.
function lines(field: Field) {
  const inputTypes: Record<string, [string, 'text' | 'email' | 'phone_number', string]> = {
    short_text: ['text', 'text', 'on'],
    email: ['email', 'email', 'email'],
    phone_number: ['tel', 'phone_number', 'tel'],
  };
  const autocomplete: Record<string, string> = {
    first_name: 'given-name',
    last_name: 'family-name',
    company: 'organization',
    address_line1: 'address-line1',
    address_line2: 'address-line2',
    city: 'address-level2',
    state: 'address-level1',
    zip: 'postal-code',
    country: 'country-name',
  };
  const readers = innerQuestions(field).map((line) => {
    const [type, key, fallback] = inputTypes[line.type] ?? inputTypes.short_text;
    const id = `q-${line.id}-input`;
    const required = (line.validations as { required?: boolean } | undefined)?.required === true;
    const subfield = (line.properties as { subfield_key?: string }).subfield_key ?? '';
    const input = el('input', {
      type,
      id,
      class: 'text',
      autocomplete: autocomplete[subfield] ?? fallback,
      'aria-required': required ? 'true' : undefined,
      ...(type === 'tel' ? { inputmode: 'tel' } : {}),
    }) as HTMLInputElement;
    const saved = progress.answers[line.ref]?.[key];
    if (typeof saved === 'string') input.value = saved;
    const label = el(
      'label',
      { for: id, class: 'line-label' },
      recall(line.title),
      required && el('span', { class: 'required', 'aria-hidden': 'true' }, ' *'),
    );
    const read = (): StoredAnswer | undefined => {
      let value = input.value.trim();
      if (key === 'phone_number') value = value.replace(/[\s().-]/g, '');
      return value === '' ? undefined : { ...answerBase(line), type: key, [key]: value };
    };
    return { line, node: el('div', { class: 'line' }, label, input), read };
  });
  return {
    node: el(
      'div',
      { class: 'answer lines', role: 'group', 'aria-labelledby': `q-${field.id}-title` },
      ...readers.map((r) => r.node),
    ),
    reader: {
      read: () => undefined,
      inner: () => readers.map(({ line, read }): [Field, StoredAnswer | undefined] => [line, read()]),
    },
  };
}

// A payment is recorded, never charged: the page shows the amount (the form's
// price so far) and asks only the payer's name; it never asks for a card. The
// answer is Typeform's payment shape without what only a charge gives: no
// `last4` (no card) and no `success` (no charge was tried, so none succeeded
// or failed).
function paymentRecord(field: Field, aria: Record<string, string | undefined>) {
  const currency = (field.properties as { currency?: string }).currency ?? 'USD';
  const amount = () => (walk().variables.price ?? 0).toFixed(2);
  const label = el(
    'label',
    { id: `q-${field.id}-payer`, for: `q-${field.id}-input`, class: 'line-label' },
    t.payerName,
  );
  const input = el('input', {
    type: 'text',
    id: `q-${field.id}-input`,
    class: 'text',
    autocomplete: 'cc-name',
    ...aria,
    // Named by the question and what it asks: the payer's name.
    'aria-labelledby': `${aria['aria-labelledby']} ${label.id}`,
  }) as HTMLInputElement;
  const saved = progress.answers[field.ref]?.payment?.name;
  if (saved) input.value = saved;
  return {
    node: el(
      'div',
      { class: 'answer payment' },
      el(
        'p',
        { class: 'amount' },
        t.amountDue.replace('{amount}', () => `${amount()} ${currency}`),
      ),
      label,
      input,
      el('p', { class: 'note' }, t.notCharged),
    ),
    reader: {
      read: (): StoredAnswer | undefined => {
        const name = input.value.trim();
        return name === ''
          ? undefined
          : { ...answerBase(field), type: 'payment', payment: { amount: amount(), name } };
      },
    },
  };
}

// Sends the answers on the respondent's path, once: the idempotency key is
// made before the first attempt and kept (with the answers) until the
// submission is stored, so a double click, a retry or a reload counts once.
async function submit(localEnding: ThankYouScreen): Promise<void> {
  if (submitting) return;
  submitting = true;
  partials.stop();
  const key = progressKey();
  const answers = answersSoFar();
  const status = el('p', { class: 'status', role: 'status' }, t.submitting);
  show(el('section', { class: 'screen sending', 'aria-busy': 'true' }, status));
  live.textContent = t.submitting;
  try {
    const response = await fetch(data.submitUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ progress_key: key, landed_at: progress.landedAt, hidden, answers }),
    });
    const body = (await response.json().catch(() => undefined)) as
      { ending?: { ref?: string }; description?: string } | undefined;
    if (!response.ok) throw new SubmitError(response.status, body?.description);
    forget();
    const ending = form.thankyou_screens.find((screen) => screen.ref === body?.ending?.ref) ?? localEnding;
    finish(ending);
    progress = fresh();
    progress.started = true;
  } catch (error) {
    submitting = false;
    const retry = el('button', { type: 'button', class: 'primary' }, t.retry);
    retry.addEventListener('click', () => void submit(localEnding));
    const detail =
      error instanceof SubmitError && error.status < 500 && error.description
        ? error.description
        : t.submitFailed;
    show(
      el(
        'section',
        { class: 'screen failed' },
        el('p', { class: 'error', role: 'alert' }, detail),
        el('div', { class: 'actions' }, retry),
      ),
    );
    retry.focus();
  }
}

class SubmitError extends Error {
  constructor(
    readonly status: number,
    readonly description: string | undefined,
  ) {
    super(`submission answered ${status}`);
  }
}

const httpUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\//i.test(value) && URL.canParse(value);

function finish(ending: ThankYouScreen): void {
  const properties = ending.properties as {
    description?: string;
    show_button?: boolean;
    button_text?: string;
    button_mode?: string;
    redirect_url?: string;
  };
  // Redirect addresses may recall answers and hidden fields, as Typeform's do.
  const redirect = (url: unknown) => (typeof url === 'string' ? recall(url, encodeURIComponent) : undefined);
  const endingUrl = redirect(properties.redirect_url);
  if (ending.type === 'url_redirect' && httpUrl(endingUrl)) return location.assign(endingUrl);
  const formUrl = redirect(settings.redirect_after_submit_url);
  if (httpUrl(formUrl)) return location.assign(formUrl);
  let button: HTMLElement | undefined;
  if (properties.show_button) {
    if (properties.button_mode === 'redirect' && httpUrl(endingUrl)) {
      button = el(
        'a',
        { class: 'button primary', href: endingUrl, rel: 'noopener noreferrer' },
        properties.button_text ?? t.continue,
      );
    } else {
      button = el('button', { type: 'button', class: 'primary' }, properties.button_text ?? t.again);
      button.addEventListener('click', () => location.reload());
    }
  }
  const media = stage(ending);
  const section = el(
    'section',
    { class: 'screen ending', 'aria-labelledby': 'screen-title', 'data-ending': ending.ref },
    el('h1', { id: 'screen-title', tabindex: '-1' }, recall(ending.title)),
    properties.description && el('p', { class: 'description' }, recall(properties.description)),
    media.inline,
    button && el('div', { class: 'actions' }, button),
  );
  show(media.placed, section);
  live.textContent = recall(ending.title);
  section.querySelector<HTMLElement>('h1')?.focus();
}

document.addEventListener('keydown', (event) => {
  // Enter on the welcome screen starts, wherever the focus is.
  if (
    event.key === 'Enter' &&
    app.querySelector('.welcome') &&
    !(event.target instanceof HTMLButtonElement)
  ) {
    app.querySelector<HTMLButtonElement>('.welcome button')?.click();
  }
});

document.documentElement.classList.add('js');
render();
