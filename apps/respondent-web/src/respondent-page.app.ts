import type { Field, FormDefinition, ThankYouScreen } from '@formline/form-definition';
import { type PageData, type PageTexts, respondentBlocks } from '@formline/form-logic';
import type { Child } from './element.builder';
import { showEnding } from './ending.screen';
import type { PageContext, PageSettings } from './page.context';
import { progressSender, type ProgressSender } from './partial-progress.sender';
import { ProgressStore } from './progress.store';
import { showQuestion } from './question.screen';
import { RespondentSession } from './respondent.session';
import { sendSubmission } from './submission.screen';
import { showWelcome } from './welcome.screen';

export interface PageEnvironment {
  /** `<main id="app">`, where the screens go. */
  app: HTMLElement;
  /** The polite live region. */
  live: HTMLElement;
  location: Pick<Location, 'search' | 'assign' | 'reload'>;
  /** The browser's localStorage, when it lets the page have it. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  fetch: typeof fetch;
}

// The respondent's page, in the browser: one block at a time, the form's logic
// deciding the next (the very code the responses service replays a submission
// with, from libs/form-logic), then the submission and the ending. Everything
// from the form is put on the page as text nodes, never as HTML. This object
// owns the page's state: the session (the respondent's progress), the
// partial responses' sender, and whether a submission is on its way.
export class RespondentPage implements PageContext {
  readonly form: FormDefinition;
  readonly t: PageTexts;
  readonly settings: PageSettings;
  readonly session: RespondentSession;
  readonly partials: ProgressSender;
  readonly blocks: readonly Field[];
  readonly numbered: readonly Field[];
  readonly questions: readonly Field[];
  private submitting = false;

  constructor(
    readonly data: PageData,
    private readonly environment: PageEnvironment,
  ) {
    this.form = data.form;
    this.t = data.texts;
    this.settings = data.form.settings as PageSettings;
    const store = new ProgressStore(
      data.formId,
      this.settings.autosave_progress !== false,
      environment.storage,
    );
    this.session = new RespondentSession(this.form, this.t, store, environment.location.search);
    this.blocks = respondentBlocks(this.form.fields);
    this.questions = this.blocks.filter((block) => block.type !== 'statement' && block.type !== 'group');
    this.numbered = this.blocks.filter((block) => block.type !== 'statement');
    // Partial responses: the answers so far, under the progress key that the
    // final submission names too (kept with the progress, so a reload keeps it).
    this.partials = progressSender({
      url: `${data.submitUrl}/partial`,
      settings: data.form.settings,
      body: () => ({
        progress_key: this.session.progressKey(),
        landed_at: this.session.landedAt,
        hidden: this.session.hidden,
        answers: this.session.answersSoFar(),
      }),
    });
  }

  get images(): Record<string, string> {
    return this.data.images;
  }

  get submitUrl(): string {
    return this.data.submitUrl;
  }

  get live(): HTMLElement {
    return this.environment.live;
  }

  get location(): Pick<Location, 'assign' | 'reload'> {
    return this.environment.location;
  }

  render(): void {
    const welcome = this.form.welcome_screens[0];
    if (!this.session.started && welcome) return showWelcome(this, welcome);
    const path = this.session.walk();
    if (path.at) return showQuestion(this, path.at, path.visited);
    void this.submit(path.ending ?? this.form.thankyou_screens[0]);
  }

  // The screen's children; a layout's picture among them names its layout on <main> for the style.
  show(...children: Child[]): void {
    const { app } = this.environment;
    const nodes = children.filter((child): child is Node | string => Boolean(child));
    const placed = nodes.find(
      (node): node is HTMLElement => node instanceof HTMLElement && node.classList.contains('layout-picture'),
    );
    app.dataset.large = placed?.dataset.large ?? '';
    app.dataset.small = placed?.dataset.small ?? '';
    app.replaceChildren(...nodes);
  }

  async submit(localEnding: ThankYouScreen): Promise<void> {
    if (this.submitting) return;
    this.submitting = true;
    this.partials.stop();
    const outcome = await sendSubmission(this, localEnding, this.environment.fetch);
    if ('failed' in outcome) {
      this.submitting = false;
      return;
    }
    showEnding(this, outcome.ending);
    this.session.submitted();
  }
}
