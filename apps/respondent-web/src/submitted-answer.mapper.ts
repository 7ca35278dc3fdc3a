import type { StoredAnswer } from '@formline/form-logic';

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
