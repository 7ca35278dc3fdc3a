import { type InsightsAnswers, insightsAnswersFieldTypes } from '@formline/contracts';
import { allFields, type Field, type FormDefinition } from '@formline/form-definition';
import { type AnswerCounts, type AnswerValue, answerKey } from './insights.repository';

type FieldAnswers = InsightsAnswers['fields'][number];
type DistributedType = FieldAnswers['type'];

// The distribution of a form's answers from the counts of its completed
// responses: every question whose answers Insights distributes, in the form's
// order (those in groups too), with every answer it takes listed, a zero
// where nobody gave it. The form as it is now says what the answers are: a
// choice since removed is not listed.
export function distributeAnswers(definition: FormDefinition, counts: AnswerCounts): InsightsAnswers {
  const distributed = allFields(definition.fields).filter((field) => isDistributed(field.type));
  return {
    form: { responses_count: counts.responses },
    fields: distributed.map((field) => fieldAnswers(field, field.type as DistributedType, counts)),
  };
}

function fieldAnswers(field: Field, type: DistributedType, counts: AnswerCounts): FieldAnswers {
  const answered = counts.answered.get(field.id);
  const given = (value: AnswerValue) => counts.given.get(answerKey(field.id, value)) ?? 0;
  const base = {
    id: field.id,
    ref: field.ref,
    title: field.title,
    type,
    answers_count: answered?.count ?? 0,
  };
  const average = { average: answered ? answered.average : null };
  const values = (all: ReadonlyArray<number | boolean>) =>
    all.map((value) => ({ value, count: given(value) }));
  switch (type) {
    case 'multiple_choice':
    case 'dropdown':
    case 'picture_choice': {
      const other = given('other');
      return {
        ...base,
        choices: (field.properties.choices ?? []).map((choice) => ({
          id: choice.id,
          ref: choice.ref,
          label: choice.label,
          count: given({ choiceId: choice.id }),
        })),
        // A dropdown takes no "other"; a question that no longer allows it
        // still shows the answers given while it did.
        ...(field.properties.allow_other_choice === true || other > 0 ? { other_count: other } : {}),
      };
    }
    case 'yes_no':
      return { ...base, values: values([true, false]) };
    case 'rating':
      return { ...base, values: values(range(1, steps(field, 5))), ...average };
    case 'opinion_scale': {
      const start = field.properties.start_at_one === true ? 1 : 0;
      return { ...base, values: values(range(start, start + steps(field, 11) - 1)), ...average };
    }
    case 'nps':
      return { ...base, values: values(range(0, 10)), ...average };
    case 'number':
      return { ...base, ...average };
  }
}

function isDistributed(type: string): type is DistributedType {
  return (insightsAnswersFieldTypes as readonly string[]).includes(type);
}

// A scale's steps as the form sets them (the global service writes its
// default into every stored form; older forms may lack it).
function steps(field: Field, fallback: number): number {
  const value = field.properties.steps;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 11 ? value : fallback;
}

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}
