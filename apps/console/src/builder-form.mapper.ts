// A form definition as the API gives it (GET /forms/{id}) into what the
// builder's inputs edit, and back into the body of PUT /forms/{id}. Inputs
// hold text (an empty number box is "", not 0); the body holds the API's
// types. What the builder has no input for (logic, settings, attachments, a
// group's questions, a choice's id) rides along untouched in `source`, so a
// save changes only what was edited and the API keeps every id.

import { type ConsoleTexts, englishTexts } from './console.texts';

export type Json = Record<string, unknown>;

/** The types the builder edits with its own inputs; any other is kept and edited as JSON. */
export const questionTypes = [
  { type: 'short_text', label: 'type.shortText' },
  { type: 'long_text', label: 'type.longText' },
  { type: 'email', label: 'type.email' },
  { type: 'number', label: 'type.number' },
  { type: 'multiple_choice', label: 'type.multipleChoice' },
  { type: 'dropdown', label: 'type.dropdown' },
  { type: 'yes_no', label: 'type.yesNo' },
  { type: 'rating', label: 'type.rating' },
  { type: 'opinion_scale', label: 'type.opinionScale' },
  { type: 'date', label: 'type.date' },
  { type: 'file_upload', label: 'type.fileUpload' },
  { type: 'statement', label: 'type.statement' },
] as const;
export type QuestionType = (typeof questionTypes)[number]['type'];

export const textTypes: readonly string[] = ['short_text', 'long_text'];
export const choiceTypes: readonly string[] = ['multiple_choice', 'dropdown'];
export const scaleTypes: readonly string[] = ['rating', 'opinion_scale'];
/** The API's bounds on a scale's steps. */
export const stepBounds: Record<string, { min: number; max: number; initial: number }> = {
  rating: { min: 3, max: 10, initial: 5 },
  opinion_scale: { min: 5, max: 11, initial: 11 },
};

export function isEditedType(type: string): type is QuestionType {
  return questionTypes.some((known) => known.type === type);
}

export function typeLabel(type: string, { t }: ConsoleTexts = englishTexts): string {
  const known = questionTypes.find((listed) => listed.type === type);
  return known ? t(known.label) : type.replace(/_/g, ' ');
}

export interface EditableChoice {
  key: string;
  label: string;
  source: Json;
}

export interface EditableQuestion {
  /** The field's ref: the API's, or one made here for a new field. */
  key: string;
  type: string;
  title: string;
  description: string;
  required: boolean;
  /** Short and long text. */
  maxLength: string;
  /** Number. */
  minValue: string;
  maxValue: string;
  /** Multiple choice and dropdown. */
  choices: EditableChoice[];
  allowMultiple: boolean;
  allowOther: boolean;
  /** Rating and opinion scale. */
  steps: string;
  startAtOne: boolean;
  labelLeft: string;
  labelCenter: string;
  labelRight: string;
  /** Statement. */
  buttonText: string;
  source: Json;
}

export interface EditableScreen {
  title: string;
  description: string;
  buttonText: string;
  source: Json;
}

export interface EditableForm {
  title: string;
  questions: EditableQuestion[];
  /** The first welcome screen; none: the form opens on its first question. */
  welcome?: EditableScreen;
  /** The first ending of the owner's own; none: the API's default ending. */
  ending?: EditableScreen;
  hidden: string[];
  /** The theme's address (`{base}/themes/{id}`); "" for the API's default. */
  themeHref: string;
  source: Json;
}

/** The ref the API gives its default ending, which every form has. */
export const defaultEndingRef = 'default_tys';

const object = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const numberText = (value: unknown): string => (typeof value === 'number' ? String(value) : '');

export function editableQuestionOf(field: Json, newKey: () => string): EditableQuestion {
  const properties = object(field.properties);
  const validations = object(field.validations);
  const labels = object(properties.labels);
  return {
    key: text(field.ref) || newKey(),
    type: text(field.type),
    title: text(field.title),
    description: text(properties.description),
    required: validations.required === true,
    maxLength: numberText(validations.max_length),
    minValue: numberText(validations.min_value),
    maxValue: numberText(validations.max_value),
    choices: list(properties.choices).map((choice) => {
      const fields = object(choice);
      return {
        key: text(fields.ref) || text(fields.id) || newKey(),
        label: text(fields.label),
        source: fields,
      };
    }),
    allowMultiple: properties.allow_multiple_selection === true,
    allowOther: properties.allow_other_choice === true,
    steps: numberText(properties.steps),
    startAtOne: properties.start_at_one === true,
    labelLeft: text(labels.left),
    labelCenter: text(labels.center),
    labelRight: text(labels.right),
    buttonText: text(properties.button_text),
    source: field,
  };
}

/** A new question of a type, with what the API needs of it (choices, steps). */
export function newQuestion(
  type: QuestionType,
  newKey: () => string,
  { t }: ConsoleTexts = englishTexts,
): EditableQuestion {
  const question = editableQuestionOf({ type, title: '' }, newKey);
  if (choiceTypes.includes(type)) {
    question.choices = [1, 2].map((n) => ({ key: newKey(), label: t('builder.choiceN', { n }), source: {} }));
  }
  if (scaleTypes.includes(type)) question.steps = String(stepBounds[type].initial);
  return question;
}

function screenOf(screen: Json): EditableScreen {
  const properties = object(screen.properties);
  return {
    title: text(screen.title),
    description: text(properties.description),
    buttonText: text(properties.button_text),
    source: screen,
  };
}

export function editableFormOf(form: Json, newKey: () => string): EditableForm {
  const welcome = object(list(form.welcome_screens)[0]);
  const ending = list(form.thankyou_screens)
    .map(object)
    .find((screen) => screen.ref !== defaultEndingRef);
  return {
    title: text(form.title),
    questions: list(form.fields).map((field) => editableQuestionOf(object(field), newKey)),
    welcome: list(form.welcome_screens).length > 0 ? screenOf(welcome) : undefined,
    ending: ending ? screenOf(ending) : undefined,
    hidden: list(form.hidden).filter((name): name is string => typeof name === 'string'),
    themeHref: text(object(form.theme).href),
    source: form,
  };
}

// Sets a key to a value, or removes it when the value is empty: the API
// takes an absent optional property, and refuses an empty title or number.
function put(target: Json, key: string, value: unknown): void {
  if (value === undefined || value === '') delete target[key];
  else target[key] = value;
}

function numberOf(typed: string): number | undefined {
  if (typed.trim() === '') return undefined;
  const value = Number(typed);
  return Number.isFinite(value) ? value : undefined;
}

export function fieldOf(question: EditableQuestion): Json {
  const { source, type } = question;
  const field: Json = { ...source, ref: question.key, title: question.title, type };
  if (!isEditedType(type)) return field;
  const properties: Json = { ...object(source.properties) };
  put(properties, 'description', question.description);
  if (choiceTypes.includes(type)) {
    properties.choices = question.choices.map((choice) => ({
      ...choice.source,
      ref: text(choice.source.ref) || choice.key,
      label: choice.label,
    }));
  }
  if (type === 'multiple_choice') {
    put(properties, 'allow_multiple_selection', question.allowMultiple || undefined);
    put(properties, 'allow_other_choice', question.allowOther || undefined);
  }
  if (scaleTypes.includes(type)) put(properties, 'steps', numberOf(question.steps));
  if (type === 'opinion_scale') {
    put(properties, 'start_at_one', question.startAtOne || undefined);
    const labels: Json = { ...object(properties.labels) };
    put(labels, 'left', question.labelLeft);
    put(labels, 'center', question.labelCenter);
    put(labels, 'right', question.labelRight);
    put(properties, 'labels', Object.keys(labels).length > 0 ? labels : undefined);
  }
  if (type === 'statement') put(properties, 'button_text', question.buttonText);
  put(field, 'properties', Object.keys(properties).length > 0 ? properties : undefined);

  // A statement takes no answer, so no validations at all.
  if (type === 'statement') {
    delete field.validations;
    return field;
  }
  const validations: Json = { ...object(source.validations) };
  // "Not required" is the API's default: written only where the form already said it.
  put(validations, 'required', question.required || ('required' in validations ? false : undefined));
  if (textTypes.includes(type)) put(validations, 'max_length', numberOf(question.maxLength));
  if (type === 'number') {
    put(validations, 'min_value', numberOf(question.minValue));
    put(validations, 'max_value', numberOf(question.maxValue));
  }
  put(
    field,
    'validations',
    Object.keys(validations).length > 0 || source.validations ? validations : undefined,
  );
  return field;
}

function screenJson(screen: EditableScreen): Json {
  const properties: Json = { ...object(screen.source.properties) };
  put(properties, 'description', screen.description);
  put(properties, 'button_text', screen.buttonText);
  const json: Json = { ...screen.source, title: screen.title };
  put(json, 'properties', Object.keys(properties).length > 0 ? properties : undefined);
  return json;
}

/** The body of PUT /forms/{id}: the form as read, with every edit in it. */
export function formOf(form: EditableForm): Json {
  const { source } = form;
  const body: Json = { ...source, title: form.title, fields: form.questions.map(fieldOf) };
  const welcomes = list(source.welcome_screens);
  body.welcome_screens = form.welcome ? [screenJson(form.welcome), ...welcomes.slice(1)] : [];
  const endings = list(source.thankyou_screens).map(object);
  const ownAt = endings.findIndex((screen) => screen.ref !== defaultEndingRef);
  if (form.ending) {
    if (ownAt >= 0) endings[ownAt] = screenJson(form.ending);
    else endings.unshift(screenJson(form.ending));
  } else if (ownAt >= 0) {
    endings.splice(ownAt, 1);
  }
  body.thankyou_screens = endings;
  body.hidden = form.hidden;
  put(body, 'theme', form.themeHref ? { href: form.themeHref } : undefined);
  return body;
}

/** The list with the item at `index` moved by `delta` places (kept when that leaves the list). */
export function moved<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item);
  return next;
}

/** Why a hidden field's name would be refused, in the API's rule; undefined when it is fine. */
export function hiddenNameProblem(
  name: string,
  taken: readonly string[],
  { t }: ConsoleTexts = englishTexts,
): string | undefined {
  if (name === '') return t('hidden.noName');
  if (!/^[a-z0-9_]+$/.test(name)) return t('hidden.badName');
  if (['__proto__', 'constructor', 'prototype'].includes(name)) return t('hidden.reserved');
  if (taken.includes(name)) return t('hidden.taken');
  return undefined;
}

export interface PathProblem {
  field: string;
  description: string;
}

/**
 * The API's refusals of a save, sorted to the questions sent (by key, so they
 * stay with their question when it moves), each path made relative to its
 * question (`properties.choices[0].label`); the rest (the title, a screen,
 * logic) apart.
 */
export function problemsByQuestion(
  questions: readonly EditableQuestion[],
  problems: readonly PathProblem[],
): { byKey: Record<string, PathProblem[]>; rest: PathProblem[] } {
  const byKey: Record<string, PathProblem[]> = {};
  const rest: PathProblem[] = [];
  for (const problem of problems) {
    const found = /^fields\[(\d+)\]\.?/.exec(problem.field);
    const question = found ? questions[Number(found[1])] : undefined;
    if (!found || !question) {
      rest.push(problem);
      continue;
    }
    (byKey[question.key] ??= []).push({
      field: problem.field.slice(found[0].length),
      description: problem.description,
    });
  }
  return { byKey, rest };
}

/** A theme's id in its address (`{base}/themes/{id}`), as the API reads it: only the path counts. */
export function themeIdOf(href: string): string | undefined {
  if (!URL.canParse(href)) return undefined;
  return /^\/themes\/([A-Za-z0-9_-]{1,64})\/?$/.exec(new URL(href).pathname)?.[1];
}
