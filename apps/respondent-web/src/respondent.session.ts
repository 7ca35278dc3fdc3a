import type { Field, FormDefinition } from '@formline/form-definition';
import { type PageTexts, type StoredAnswer, stepThroughForm, valueOf } from '@formline/form-logic';
import { freshProgress, type Progress, type ProgressStore } from './progress.store';
import { toSubmitted } from './submitted-answer.mapper';

// One respondent's way through the form: the answers and the blocks confirmed
// (kept by the progress store), the hidden fields from the page's address,
// and the walk of libs/form-logic over them (the very code the responses
// service replays a submission with). Every screen reads and changes the
// respondent's progress through this object only.
export class RespondentSession {
  private progress: Progress;
  readonly hidden: Record<string, string>;

  constructor(
    private readonly form: FormDefinition,
    private readonly texts: Pick<PageTexts, 'yes' | 'no'>,
    private readonly store: ProgressStore,
    search: string,
  ) {
    this.progress = store.restore() ?? freshProgress();
    this.hidden = readHidden(form.hidden, search);
  }

  get started(): boolean {
    return this.progress.started;
  }

  get landedAt(): string {
    return this.progress.landedAt;
  }

  /** The answer kept for a field, confirmed or not. */
  answer(ref: string): StoredAnswer | undefined {
    return Object.hasOwn(this.progress.answers, ref) ? this.progress.answers[ref] : undefined;
  }

  isConfirmed(ref: string): boolean {
    return this.progress.confirmed.includes(ref);
  }

  start(): void {
    this.progress.started = true;
    this.save();
  }

  /** The block confirmed with its answers (its inner questions' for a composite one), after the path before it. */
  confirm(
    visited: readonly string[],
    field: Field,
    answers: ReadonlyArray<readonly [Field, StoredAnswer | undefined]>,
  ): void {
    for (const [question, value] of answers) this.keep(question.ref, value);
    this.progress.confirmed = [...visited, field.ref];
    this.save();
  }

  // Back to the block before: it and everything after it are open again
  // (their answers stay as they were, to change or confirm).
  back(visited: readonly string[]): void {
    this.progress.confirmed = visited.slice(0, -1);
    this.save();
  }

  /** Submitted: nothing is kept any more, and filling in again starts past the welcome screen. */
  submitted(): void {
    this.store.forget();
    this.progress = { ...freshProgress(), started: true };
  }

  /** The idempotency key of the submission, also the partial responses' progress key; made once. */
  progressKey(): string {
    if (!this.progress.key) {
      this.progress.key = crypto.randomUUID();
      this.save();
    }
    return this.progress.key;
  }

  // The walk of libs/form-logic over the blocks confirmed so far: where the
  // respondent is now, or the ending they reached.
  walk(confirmed: readonly string[] = this.progress.confirmed) {
    const done = new Set(confirmed);
    return stepThroughForm(
      this.form,
      {
        answer: (ref) => {
          const answer = done.has(ref) ? this.answer(ref) : undefined;
          return answer && valueOf(answer);
        },
        hidden: (name) => (Object.hasOwn(this.hidden, name) ? this.hidden[name] : undefined),
      },
      (block) => !done.has(block.ref),
    );
  }

  // The walk as if this block were confirmed with this answer: does it end there?
  walkWith(field: Field, answer: StoredAnswer | undefined) {
    const saved = this.answer(field.ref);
    this.keep(field.ref, answer);
    const path = this.walk([...this.walk().visited, field.ref]);
    this.keep(field.ref, saved);
    return path;
  }

  /** The answers on the respondent's path through the blocks confirmed so far, as a submission names them. */
  answersSoFar(): Array<Record<string, unknown>> {
    return this.walk().visited.flatMap((ref) => {
      const answer = this.answer(ref);
      return answer ? [toSubmitted(answer)] : [];
    });
  }

  // Recall: `{{field:ref}}`, `{{hidden:name}}` and `{{var:score}}` in the
  // form's texts read the answers given so far (as text, like everything else);
  // in a redirect address, each value goes in encoded (`encode`).
  recall(text: string, encode: (value: string) => string = (value) => value): string {
    return text.replace(/\{\{(field|hidden|var):([\w-]{1,255})\}\}/g, (_match, kind: string, name: string) =>
      encode(this.recalled(kind, name)),
    );
  }

  private recalled(kind: string, name: string): string {
    if (kind === 'hidden') return Object.hasOwn(this.hidden, name) ? this.hidden[name] : '';
    if (kind === 'var') return String(this.walk().variables[name as 'score' | 'price'] ?? '');
    const answer = this.isConfirmed(name) ? this.answer(name) : undefined;
    const value = answer && valueOf(answer);
    if (value === undefined) return '';
    if (typeof value === 'boolean') return value ? this.texts.yes : this.texts.no;
    if (Array.isArray(value)) return value.map((choice) => choice.label).join(', ');
    return typeof value === 'object' ? value.label : String(value);
  }

  private keep(ref: string, answer: StoredAnswer | undefined): void {
    if (answer) this.progress.answers[ref] = answer;
    else delete this.progress.answers[ref];
  }

  private save(): void {
    this.store.save(this.progress);
  }
}

// Hidden fields come from the address's query (?name=value), only those the form declares.
function readHidden(declared: readonly string[], search: string): Record<string, string> {
  const query = new URLSearchParams(search);
  const values: Record<string, string> = {};
  for (const name of declared) {
    const value = query.get(name);
    if (value !== null) values[name] = value.slice(0, 2000);
  }
  return values;
}
