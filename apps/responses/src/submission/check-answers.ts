import type { ErrorDetail } from '@formline/errors';
import { allFields, type Choice, type Field, type FormDefinition } from '@formline/form-definition';
import {
  type BrokenRule,
  brokenAnswerRule,
  brokenSelectionRule,
  isWebUrl,
  type StoredAnswer,
} from '@formline/form-logic';
import type { AnswerInput, AnswerType } from './submission.schema';

// The answer type each question takes, after Typeform's response model.
const answerTypesByField: Record<Field['type'], readonly AnswerType[]> = {
  short_text: ['text'],
  long_text: ['text'],
  email: ['email'],
  number: ['number'],
  rating: ['number'],
  opinion_scale: ['number'],
  multiple_choice: ['choice', 'choices'],
  dropdown: ['choice'],
  yes_no: ['boolean'],
  legal: ['boolean'],
  date: ['date'],
  phone_number: ['phone_number'],
  website: ['url'],
  statement: [],
  group: [],
  picture_choice: ['choice', 'choices'],
  nps: ['number'],
  ranking: ['choices'],
  // Answered through their inner fields, one answer each.
  matrix: [],
  contact_info: [],
  address: [],
  file_upload: ['file_url'],
  payment: ['payment'],
  // The scheduled event's URL, as Typeform records a Calendly booking.
  calendly: ['url'],
  // Typeform's video and audio question: a recording (an upload) or text.
  multi_format: ['multi_format'],
};

export interface CheckedAnswers {
  answers: Map<string, StoredAnswer>; // by field ref
  positions: Map<string, number>; // field ref -> index in the submitted answers
  problems: ErrorDetail[];
}

// Checks every answer against its question: it names a question of the form,
// once, with the right type and a valid value. Whether a required question was
// answered depends on the respondent's path, so that is checked after logic.
export function checkAnswers(definition: FormDefinition, inputs: readonly AnswerInput[]): CheckedAnswers {
  const fields = allFields(definition.fields);
  const answers = new Map<string, StoredAnswer>();
  const positions = new Map<string, number>();
  const problems: ErrorDetail[] = [];
  inputs.forEach((input, i) => {
    const problem = (field: string, description: string, code = 'INVALID_ANSWER') =>
      problems.push({ code, description, field: `answers[${i}]${field}`, in: 'body' });
    const field = fields.find((f) => (input.field.id ? f.id === input.field.id : f.ref === input.field.ref));
    if (!field)
      return problem(
        '.field',
        `the form has no question ${input.field.id ?? input.field.ref}`,
        'UNKNOWN_FIELD',
      );
    if (answers.has(field.ref))
      return problem('.field', `${field.ref} is answered twice`, 'DUPLICATE_ANSWER');
    const accepted = answerTypesByField[field.type];
    if (!accepted.includes(input.type)) {
      const expected = accepted.length ? accepted.join(' or ') : 'no answer';
      return problem('.type', `${field.ref} (${field.type}) takes ${expected}, not ${input.type}`);
    }
    const value = input[input.type];
    if (value === undefined) return problem(`.${input.type}`, `a ${input.type} answer needs its value`);
    const error = checkValue(field, input);
    if (error) return problem(`.${input.type}`, error);
    answers.set(field.ref, toStored(field, input));
    positions.set(field.ref, i);
  });
  return { answers, positions, problems };
}

// The rules shared with the respondent's page come from libs/form-logic; what
// only a submission can get wrong (a choice the question lacks, a malformed
// payment, a scale's range) is checked here.
function checkValue(field: Field, input: AnswerInput): string | undefined {
  const properties = field.properties as Record<string, unknown>;
  switch (input.type) {
    case 'payment':
      return checkPayment(input.payment!);
    case 'multi_format':
      return checkMultiFormat(input.multi_format!);
    case 'number':
      return checkNumber(field, input, properties);
    case 'choice':
      return findChoice(field, input.choice!) ||
        (input.choice!.other !== undefined && properties.allow_other_choice)
        ? undefined
        : 'not one of the choices';
    case 'choices':
      return checkChoices(field, input.choices!, properties);
    case 'text':
    case 'email':
    case 'url':
    case 'file_url':
    case 'phone_number':
    case 'date':
    case 'boolean':
      return described(brokenAnswerRule(field, input));
  }
}

// A broken rule in the API's words.
function described(broken: BrokenRule | undefined): string | undefined {
  if (!broken) return undefined;
  switch (broken.rule) {
    case 'tooLong':
      return `at most ${broken.n} characters`;
    case 'invalidEmail':
      return 'not an email address';
    case 'invalidUrl':
      return 'not an http(s) URL';
    case 'invalidPhone':
      return 'not a phone number in E.164 form (+15551234567)';
    case 'invalidDate':
      return 'not a date (YYYY-MM-DD)';
    case 'invalidNumber':
      return 'not a number';
    case 'acceptTerms':
      return 'the terms must be accepted';
    case 'atLeast':
      return `at least ${broken.n}`;
    case 'atMost':
      return `at most ${broken.n}`;
    case 'pickAtLeast':
      return `pick at least ${broken.n}`;
    case 'pickAtMost':
      return `pick at most ${broken.n}`;
  }
}

function checkNumber(
  field: Field,
  input: AnswerInput,
  properties: Record<string, unknown>,
): string | undefined {
  const value = input.number!;
  if (field.type === 'nps') {
    return Number.isInteger(value) && value >= 0 && value <= 10 ? undefined : 'a whole number from 0 to 10';
  }
  if (field.type === 'rating' || field.type === 'opinion_scale') {
    const steps = properties.steps as number;
    const start = field.type === 'rating' || properties.start_at_one === true ? 1 : 0;
    const end = field.type === 'rating' ? steps : start + steps - 1;
    return Number.isInteger(value) && value >= start && value <= end
      ? undefined
      : `a whole number from ${start} to ${end}`;
  }
  return described(brokenAnswerRule(field, input));
}

function checkChoices(
  field: Field,
  value: NonNullable<AnswerInput['choices']>,
  properties: Record<string, unknown>,
): string | undefined {
  const named = [...(value.ids ?? []), ...(value.refs ?? []), ...(value.labels ?? [])];
  const picked = pickedChoices(field, value);
  if (picked.length !== named.length) return 'names a choice the question does not have';
  if (field.type === 'ranking') return checkRanking(field, value, picked);
  if (!properties.allow_multiple_selection) return 'this question takes one choice (type choice)';
  if (value.other !== undefined && !properties.allow_other_choice)
    return 'this question has no "other" choice';
  const count = new Set(picked.map((choice) => choice.ref)).size + (value.other !== undefined ? 1 : 0);
  if (count === 0) return 'pick at least one choice';
  return described(brokenSelectionRule(field, count));
}

// A ranking names every choice once, in the respondent's order, by one kind
// of name (ids, refs or labels) so that the order is unambiguous.
function checkRanking(
  field: Field,
  value: NonNullable<AnswerInput['choices']>,
  picked: readonly Choice[],
): string | undefined {
  const lists = [value.ids, value.refs, value.labels].filter((list) => list !== undefined);
  if (lists.length !== 1) return 'rank the choices by ids, refs or labels (one list)';
  if (value.other !== undefined) return 'a ranking has no "other" choice';
  const all = field.properties.choices ?? [];
  const distinct = new Set(picked.map((choice) => choice.ref)).size;
  return distinct === picked.length && distinct === all.length
    ? undefined
    : `rank every choice once (${all.length} choices)`;
}

// A recording names its upload (file_url) and says nothing else; a text answer
// is the text alone. Whether the upload is this question's is checked with the
// other files (FileAnswers).
function checkMultiFormat(value: NonNullable<AnswerInput['multi_format']>): string | undefined {
  if (value.format === 'text') {
    if (value.file_url !== undefined) return 'a text answer has no file_url';
    return value.text?.trim() ? undefined : 'a text answer needs its text';
  }
  if (value.text !== undefined) return `a ${value.format} answer is its recording's file_url, without text`;
  if (value.file_url === undefined) return `a ${value.format} answer needs the file_url of its recording`;
  return isWebUrl(value.file_url) ? undefined : 'file_url is not an http(s) URL';
}

// Typeform's amounts: a decimal string with at most two decimals.
function checkPayment(payment: NonNullable<AnswerInput['payment']>): string | undefined {
  if (!/^\d{1,12}(?:\.\d{1,2})?$/.test(payment.amount)) return 'amount is a decimal such as "12.50"';
  if (payment.last4 !== undefined && !/^\d{4}$/.test(payment.last4)) return 'last4 is four digits';
  return undefined;
}

function findChoice(field: Field, choice: { id?: string; ref?: string; label?: string }): Choice | undefined {
  return (field.properties.choices ?? []).find(
    (c) =>
      (choice.id && c.id === choice.id) ||
      (choice.ref && c.ref === choice.ref) ||
      (choice.label && c.label === choice.label),
  );
}

function pickedChoices(field: Field, value: NonNullable<AnswerInput['choices']>): Choice[] {
  const choices = field.properties.choices ?? [];
  return [
    ...(value.ids ?? []).map((id) => choices.find((c) => c.id === id)),
    ...(value.refs ?? []).map((ref) => choices.find((c) => c.ref === ref)),
    ...(value.labels ?? []).map((label) => choices.find((c) => c.label === label)),
  ].filter((c): c is Choice => c !== undefined);
}

function toStored(field: Field, input: AnswerInput): StoredAnswer {
  const base = { field: { id: field.id, ref: field.ref, type: field.type }, type: input.type };
  if (input.type === 'choice') {
    const choice = findChoice(field, input.choice!);
    return {
      ...base,
      choice: choice
        ? { id: choice.id, ref: choice.ref, label: choice.label }
        : { other: input.choice!.other },
    };
  }
  if (input.type === 'choices') {
    const picked = pickedChoices(field, input.choices!).filter(
      (c, i, all) => all.findIndex((x) => x.ref === c.ref) === i,
    );
    const other = input.choices!.other;
    return {
      ...base,
      choices: {
        ids: picked.map((c) => c.id),
        refs: picked.map((c) => c.ref),
        labels: picked.map((c) => c.label),
        ...(other !== undefined ? { other } : {}),
      },
    };
  }
  return { ...base, [input.type]: input[input.type] };
}
