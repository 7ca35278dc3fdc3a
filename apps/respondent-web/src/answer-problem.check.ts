import type { Field } from '@formline/form-definition';
import {
  brokenAnswerRule,
  brokenSelectionRule,
  type PageTexts,
  type StoredAnswer,
} from '@formline/form-logic';

// The respondent's answer checked in the browser before moving on, with the
// rules the responses service applies to a submission (libs/form-logic's
// answer rules: it checks again), so a respondent learns at once what to
// correct, in the form's language.
export function answerProblem(
  field: Field,
  answer: StoredAnswer | undefined,
  t: PageTexts,
): string | undefined {
  if (!answer)
    return (field.validations as { required?: boolean } | undefined)?.required ? t.required : undefined;
  const broken =
    answer.type === 'choices'
      ? brokenSelectionRule(
          field,
          answer.choices!.refs.length + (answer.choices!.other !== undefined ? 1 : 0),
        )
      : brokenAnswerRule(field, answer);
  if (!broken) return undefined;
  return 'n' in broken ? t[broken.rule].replace('{n}', String(broken.n)) : t[broken.rule];
}
