import type { Field } from '@formline/form-definition';
import {
  isCalendarDate,
  isEmailAddress,
  isPhoneNumber,
  isWebUrl,
  type StoredAnswer,
} from '@formline/form-logic';
import type { PageTexts } from '../page-texts';

// The respondent's answer checked in the browser before moving on, with the
// rules the responses service applies to a submission (it checks again), so
// a respondent learns at once what to correct.

const say = (text: string, n: number) => text.replace('{n}', String(n));

export function answerProblem(
  field: Field,
  answer: StoredAnswer | undefined,
  t: PageTexts,
): string | undefined {
  const validations = (field.validations ?? {}) as Record<string, number | boolean | undefined>;
  if (!answer) return validations.required === true ? t.required : undefined;
  switch (answer.type) {
    case 'text': {
      const max = validations.max_length as number | undefined;
      return max !== undefined && answer.text!.length > max ? say(t.tooLong, max) : undefined;
    }
    case 'email':
      return isEmailAddress(answer.email!) ? undefined : t.invalidEmail;
    case 'url':
    case 'file_url':
      return isWebUrl(answer[answer.type]!) ? undefined : t.invalidUrl;
    case 'phone_number':
      return isPhoneNumber(answer.phone_number!) ? undefined : t.invalidPhone;
    case 'date':
      return isCalendarDate(answer.date!) ? undefined : t.invalidDate;
    case 'boolean':
      return field.type === 'legal' && validations.required === true && answer.boolean !== true
        ? t.acceptTerms
        : undefined;
    case 'number': {
      const value = answer.number!;
      if (!Number.isFinite(value)) return t.invalidNumber;
      const min = validations.min_value as number | undefined;
      const max = validations.max_value as number | undefined;
      if (min !== undefined && value < min) return say(t.atLeast, min);
      if (max !== undefined && value > max) return say(t.atMost, max);
      return undefined;
    }
    case 'choices': {
      const count = answer.choices!.refs.length + (answer.choices!.other !== undefined ? 1 : 0);
      const min = validations.min_selection as number | undefined;
      const max = validations.max_selection as number | undefined;
      if (min !== undefined && count < min) return say(t.pickAtLeast, min);
      if (max !== undefined && count > max) return say(t.pickAtMost, max);
      return undefined;
    }
    default:
      return undefined;
  }
}

// The answer as the submission body names it: the field by ref, choices by ref.
export function toSubmitted(answer: StoredAnswer): Record<string, unknown> {
  const base = { field: { ref: answer.field.ref }, type: answer.type };
  if (answer.type === 'choice') {
    const choice = answer.choice!;
    return { ...base, choice: choice.ref !== undefined ? { ref: choice.ref } : { other: choice.other } };
  }
  if (answer.type === 'choices') {
    const { refs, other } = answer.choices!;
    return { ...base, choices: other !== undefined ? { refs, other } : { refs } };
  }
  const key = answer.type as
    'text' | 'email' | 'number' | 'boolean' | 'date' | 'url' | 'phone_number' | 'file_url' | 'payment';
  return { ...base, [key]: answer[key] };
}
