// The body of POST /forms that copies a form read with GET /forms/{form_id}:
// the whole definition (fields, screens, logic, hidden fields, variables,
// settings, theme and workspace), so the copy lands in the same workspace and
// looks and behaves the same. The API takes the read-only properties back
// and ignores them, and gives a new form new ids; they are left out all the
// same, so the body says only what is meant.

/** What the API returns of a form and does not take as input. */
import { type ConsoleTexts, englishTexts } from './console.texts';

const readOnly = ['id', '_links', 'self', 'created_at', 'last_updated_at', 'published_at'] as const;

/** The API's longest title (libs/input's formTitle). */
export const titleMaxLength = 1000;

/**
 * "Title (copy)", within the API's bound (counted as it counts, in UTF-16
 * units): a longer title is cut, never through a character, and ends in "…".
 */
export function copyTitleOf(title: string, { t }: ConsoleTexts = englishTexts): string {
  // In the console's language: the copy's title is the owner's, and says what it is to them.
  const copySuffix = t('copy.suffix');
  const whole = title.trim() || t('form.untitled');
  const room = titleMaxLength - copySuffix.length;
  if (whole.length <= room) return `${whole}${copySuffix}`;
  let kept = '';
  for (const character of whole) {
    if (kept.length + character.length > room - 1) break;
    kept += character;
  }
  return `${kept}…${copySuffix}`;
}

export function copyBodyOf(
  form: Readonly<Record<string, unknown>>,
  texts: ConsoleTexts = englishTexts,
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...form };
  for (const name of readOnly) delete body[name];
  body.title = copyTitleOf(typeof form.title === 'string' ? form.title : '', texts);
  return body;
}
