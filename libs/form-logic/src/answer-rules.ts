import type { Field } from '@formline/form-definition';
import { isCalendarDate, isEmailAddress, isPhoneNumber, isWebUrl } from './answer-formats';

// The rules an answer's value keeps, named once for the two places that check
// them: the respondent's page, which says the broken rule in the form's
// language before moving on, and the responses service, which refuses the
// submission with a description for the API's caller. Each place words the
// rule its own way; what counts as broken is decided here only.

/** A broken rule: its name (also the page's text for it) and its limit, when it has one. */
export type BrokenRule =
  | { rule: 'tooLong' | 'atLeast' | 'atMost' | 'pickAtLeast' | 'pickAtMost'; n: number }
  | {
      rule: 'invalidEmail' | 'invalidUrl' | 'invalidPhone' | 'invalidDate' | 'invalidNumber' | 'acceptTerms';
    };

/** The values of an answer the rules read, as both a stored and a submitted answer hold them. */
export interface RuledAnswer {
  type: string;
  text?: string;
  email?: string;
  url?: string;
  file_url?: string;
  phone_number?: string;
  date?: string;
  boolean?: boolean;
  number?: number;
}

interface Validations {
  required?: boolean;
  max_length?: number;
  min_value?: number;
  max_value?: number;
  min_selection?: number;
  max_selection?: number;
}

const validationsOf = (field: Field) => (field.validations ?? {}) as Validations;

/** The rule the answer's value breaks, if any; the answer's type is taken as the field's. */
export function brokenAnswerRule(field: Field, answer: RuledAnswer): BrokenRule | undefined {
  const validations = validationsOf(field);
  switch (answer.type) {
    case 'text': {
      const max = validations.max_length;
      return max !== undefined && (answer.text ?? '').length > max ? { rule: 'tooLong', n: max } : undefined;
    }
    case 'email':
      return isEmailAddress(answer.email ?? '') ? undefined : { rule: 'invalidEmail' };
    case 'url':
    case 'file_url':
      return isWebUrl(answer[answer.type] ?? '') ? undefined : { rule: 'invalidUrl' };
    case 'phone_number':
      return isPhoneNumber(answer.phone_number ?? '') ? undefined : { rule: 'invalidPhone' };
    case 'date':
      return isCalendarDate(answer.date ?? '') ? undefined : { rule: 'invalidDate' };
    case 'boolean':
      // Accepting the terms is the only answer a required legal question takes.
      return field.type === 'legal' && validations.required === true && answer.boolean !== true
        ? { rule: 'acceptTerms' }
        : undefined;
    case 'number':
      return brokenRangeRule(field, answer.number ?? Number.NaN);
    default:
      return undefined;
  }
}

/** A number against the field's `min_value` and `max_value`. */
export function brokenRangeRule(field: Field, value: number): BrokenRule | undefined {
  if (!Number.isFinite(value)) return { rule: 'invalidNumber' };
  const { min_value: min, max_value: max } = validationsOf(field);
  if (min !== undefined && value < min) return { rule: 'atLeast', n: min };
  if (max !== undefined && value > max) return { rule: 'atMost', n: max };
  return undefined;
}

/** How many choices were picked (the "other" one included) against `min_selection` and `max_selection`. */
export function brokenSelectionRule(field: Field, count: number): BrokenRule | undefined {
  const { min_selection: min, max_selection: max } = validationsOf(field);
  if (min !== undefined && count < min) return { rule: 'pickAtLeast', n: min };
  if (max !== undefined && count > max) return { rule: 'pickAtMost', n: max };
  return undefined;
}
