import { type ConsoleTexts, englishTexts } from './console.texts';

// A form's responses in words: which questions are the columns of the
// Results table (from the form's definition), and each answer as a person
// reads it, by its answer type (Typeform's response model).

/** What the console reads of a question of GET /forms/{form_id}. */
export interface FormField {
  id: string;
  ref?: string;
  title?: string;
  type: string;
  properties?: { fields?: FormField[] };
}

/** What the console reads of a form: its questions and hidden fields. */
export interface FormOfResults {
  id: string;
  title: string;
  fields?: FormField[];
  hidden?: string[];
}

/** An answer as the Responses API lists it: `{field, type, <type>: value}`. */
export interface Answer {
  field?: { id?: string; ref?: string; type?: string };
  type?: string;
  [value: string]: unknown;
}

/** What the console reads of a response. */
export interface ResponseItem {
  token: string;
  response_id: string;
  response_type?: string;
  landed_at: string;
  submitted_at: string;
  answers?: Answer[];
  hidden?: Record<string, unknown>;
  calculated?: { score?: number };
  variables?: Array<{ key?: string; type?: string; [value: string]: unknown }>;
  ending?: { id?: string; ref?: string };
  metadata?: Record<string, unknown>;
}

/** A column of the table: one question, titled for a person. */
export interface Question {
  id: string;
  ref?: string;
  title: string;
  type: string;
}

// Blocks that hold no answer of their own: a statement says something, a
// group, a matrix, a contact block and an address are answered through their
// inner questions (one level down, as the API lists them).
const withoutAnswer = new Set(['statement', 'group', 'matrix', 'contact_info', 'address']);
const headed = new Set(['matrix', 'contact_info', 'address']);

/** The questions that take answers, in the form's order, inner ones after their block. */
export function questionsOf(fields: readonly FormField[] | undefined): Question[] {
  const questions: Question[] = [];
  for (const field of fields ?? []) {
    const title = field.title?.trim() || field.ref || field.id;
    if (!withoutAnswer.has(field.type))
      questions.push({ id: field.id, ref: field.ref, title, type: field.type });
    for (const inner of field.properties?.fields ?? []) {
      if (withoutAnswer.has(inner.type)) continue;
      const innerTitle = inner.title?.trim() || inner.ref || inner.id;
      questions.push({
        id: inner.id,
        ref: inner.ref,
        title: headed.has(field.type) ? `${title}: ${innerTitle}` : innerTitle,
        type: inner.type,
      });
    }
  }
  return questions;
}

/** The answers of a response by question id. */
export function answersById(response: ResponseItem): Map<string, Answer> {
  const found = new Map<string, Answer>();
  for (const answer of Array.isArray(response.answers) ? response.answers : []) {
    const id = answer.field?.id;
    if (typeof id === 'string') found.set(id, answer);
  }
  return found;
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A file answer's name: the last segment of its address, decoded. */
export function fileNameOf(url: unknown): string {
  if (typeof url !== 'string' || url === '') return '';
  const last = url.split('?')[0].split('/').at(-1) ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** An answer's value as a person reads it; empty when there is none. */
export function answerInWords(
  answer: Answer | undefined,
  question?: Pick<Question, 'type'>,
  texts: ConsoleTexts = englishTexts,
): string {
  const { t } = texts;
  if (!answer?.type || !Object.hasOwn(answer, answer.type)) return '';
  const value = answer[answer.type];
  const fields = record(value);
  switch (answer.type) {
    case 'text':
    case 'email':
    case 'url':
    case 'phone_number':
      return text(value);
    case 'number':
      return typeof value === 'number' ? String(value) : text(value);
    case 'boolean': {
      const legal = (question?.type ?? answer.field?.type) === 'legal';
      if (value === true) return t(legal ? 'answer.accepted' : 'answer.yes');
      if (value === false) return t(legal ? 'answer.notAccepted' : 'answer.no');
      return text(value);
    }
    case 'date':
      return dateInWords(text(value), texts);
    case 'choice':
      return fields.label !== undefined
        ? text(fields.label)
        : fields.other !== undefined
          ? t('answer.otherIs', { other: text(fields.other) })
          : '';
    case 'choices': {
      const labels = Array.isArray(fields.labels) ? fields.labels.map(text) : [];
      const ranked = (question?.type ?? answer.field?.type) === 'ranking';
      const listed = ranked ? labels.map((label, i) => `${i + 1}. ${label}`) : labels;
      if (fields.other !== undefined) listed.push(t('answer.otherIs', { other: text(fields.other) }));
      return listed.join(', ');
    }
    case 'file_url':
      return fileNameOf(value);
    case 'payment': {
      const parts = [text(fields.amount)];
      if (fields.name !== undefined) parts.push(t('payment.by', { name: text(fields.name) }));
      if (fields.last4 !== undefined) parts.push(t('payment.card', { last4: text(fields.last4) }));
      if (fields.success === false) parts.push(t('payment.failed'));
      return parts.join(' ');
    }
    case 'multi_format': {
      if (fields.format === 'text') return text(fields.text);
      return t(fields.format === 'audio' ? 'answer.audio' : 'answer.video', {
        file: fileNameOf(fields.file_url),
      });
    }
    default:
      return text(value);
  }
}

/** The address of an answer's file (a file_upload's, a recording's), if it has one. */
export function fileUrlOf(answer: Answer | undefined): string | undefined {
  if (answer?.type === 'file_url' && typeof answer.file_url === 'string') return answer.file_url;
  if (answer?.type === 'multi_format') {
    const url = record(answer.multi_format).file_url;
    if (typeof url === 'string') return url;
  }
  return undefined;
}

/** A day as the API writes it (`2026-03-05`), in words (`5 Mar 2026`), or as it came. */
export function dateInWords(day: string, texts: ConsoleTexts = englishTexts): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!match) return day;
  const month = months[Number(match[2]) - 1];
  if (!month) return day;
  // English keeps its own short months; another language writes the day its way.
  return texts.language === 'en'
    ? `${Number(match[3])} ${month} ${match[1]}`
    : texts.day(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))), {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      });
}

/** Completed, or how far an unfinished response got. */
export function responseTypeInWords(type: string | undefined, { t }: ConsoleTexts = englishTexts): string {
  if (type === 'partial') return t('response.partial');
  if (type === 'started') return t('response.started');
  return t('filters.completed');
}

/** A response not yet submitted shows Typeform's zero time as its submitted_at. */
export function wasSubmitted(response: Pick<ResponseItem, 'response_type' | 'submitted_at'>): boolean {
  return (
    (response.response_type ?? 'completed') === 'completed' && !response.submitted_at.startsWith('0001-')
  );
}

// The API counts a filtered listing's matches up to a bound (1000 unless the
// deployment changes it) and an unfiltered one exactly (by the form's tallies).
const countBound = 1000;

/** How many responses the first page's `total_items` says there are. */
export function totalInWords(total: number, filtered: boolean, { t }: ConsoleTexts = englishTexts): string {
  if (!filtered) return t('response.inAll', { count: total });
  return t(total >= countBound ? 'response.orMoreMatching' : 'response.matching', { count: total });
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

// A value of a kind the console does not know is shown as its JSON, bounded.
function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value).slice(0, 2000);
}
