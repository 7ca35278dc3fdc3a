import type { FormDefinition } from '@formline/form-definition';

// What the server (libs/respondent-page) hands the page's script
// (apps/respondent-web), as JSON in the page: the form, where to submit it,
// the page's own texts in the form's language, the count of submissions when
// the welcome screen shows it, and where its pictures are. Types only, here
// because both sides read them and the browser's code may import nothing of
// Node's.
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

// The respondent page's own words, in one language (libs/respondent-page has
// one data file per language). `{n}`, `{total}`, `{label}`, `{name}`,
// `{amount}` and `{site}` stand for values. The names of the rules an answer
// can break (BrokenRule) are texts too: the page says a broken rule in these
// words.
export interface PageTexts {
  start: string;
  ok: string;
  submit: string;
  continue: string;
  back: string;
  next: string;
  pressEnter: string;
  required: string;
  invalidEmail: string;
  invalidUrl: string;
  invalidPhone: string;
  invalidDate: string;
  invalidNumber: string;
  tooLong: string;
  atLeast: string;
  atMost: string;
  pickAtLeast: string;
  pickAtMost: string;
  acceptTerms: string;
  yes: string;
  no: string;
  accept: string;
  decline: string;
  other: string;
  choose: string;
  typeHere: string;
  minutes: string;
  submissions: string;
  answered: string;
  percentAnswered: string;
  submitting: string;
  submitFailed: string;
  retry: string;
  again: string;
  notFound: string;
  needsScript: string;
  moveUp: string;
  moveDown: string;
  payerName: string;
  amountDue: string;
  notCharged: string;
  bookingUrl: string;
  bookTime: string;
  bookingHint: string;
  rankedAt: string;
  chooseFile: string;
  uploading: string;
  uploaded: string;
  uploadFailed: string;
  fileTooLarge: string;
  watchVideo: string;
  newTab: string;
  recordVideo: string;
  recordAudio: string;
  stopRecording: string;
  recording: string;
}
