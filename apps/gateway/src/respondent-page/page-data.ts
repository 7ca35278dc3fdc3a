import type { FormDefinition } from '@formline/form-definition';
import type { PageTexts } from './page-texts';

// What the server hands the page's script, as JSON in the page: the form, where
// to submit it, the page's own texts in the form's language, the count of
// submissions when the welcome screen shows it, and where its pictures are. Types only: the script imports
// this file, and nothing of it may reach the browser bundle but the shapes.
export interface PageData {
  formId: string;
  form: FormDefinition;
  /** The submissions address in the region of the form's account. */
  submitUrl: string;
  texts: PageTexts;
  submissionCount?: number;
  /**
   * Each image the form names (by its address, on either region's base), as
   * a path on the page's own origin: the page loads pictures from there only.
   */
  images: Record<string, string>;
}
