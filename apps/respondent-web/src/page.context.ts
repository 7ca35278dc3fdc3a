import type { Field, FormDefinition, ThankYouScreen } from '@formline/form-definition';
import type { PageData, PageTexts } from '@formline/form-logic';
import type { Child } from './element.builder';
import type { ProgressSender } from './partial-progress.sender';
import type { RespondentSession } from './respondent.session';

// What the screens and controls of the page share: the page's data, the
// respondent's session, the live region, and the page's ways to show a
// screen. The page (respondent-page.app.ts) is the one object that has them.

/** The form's settings the page reads. */
export interface PageSettings {
  autosave_progress?: boolean;
  progress_bar?: 'percentage' | 'proportion';
  show_progress_bar?: boolean;
  show_time_to_complete?: boolean;
  show_number_of_submissions?: boolean;
  show_question_number?: boolean;
  show_key_hint_on_choices?: boolean;
  hide_navigation?: boolean;
  redirect_after_submit_url?: string;
}

/** What a control needs to draw a question and read its answer. */
export interface ControlContext {
  readonly t: PageTexts;
  readonly session: RespondentSession;
  /** Where the form's pictures are, on the page's own origin. */
  readonly images: Record<string, string>;
  /** The form's submissions address; uploads go beside it. */
  readonly submitUrl: string;
  /** A polite live region: what it says is announced. */
  readonly live: HTMLElement;
  readonly settings: PageSettings;
}

export interface PageContext extends ControlContext {
  readonly data: PageData;
  readonly form: FormDefinition;
  /** The form's blocks, in order, those with a number, and the questions among them. */
  readonly blocks: readonly Field[];
  readonly numbered: readonly Field[];
  readonly questions: readonly Field[];
  readonly partials: ProgressSender;
  readonly location: Pick<Location, 'assign' | 'reload'>;
  /** The screen's children, in place of the last screen's. */
  show(...children: Child[]): void;
  /** The screen where the respondent is now. */
  render(): void;
  submit(localEnding: ThankYouScreen): Promise<void>;
}
