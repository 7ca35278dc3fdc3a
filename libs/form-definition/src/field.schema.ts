import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import {
  addressSubfields,
  contactInfoSubfields,
  dateSeparators,
  dateStructures,
  paymentCurrencies,
  ratingShapes,
} from './enums';
import { attachmentSchema, layoutSchema } from './media.schema';

// Questions and blocks, after Typeform's field model: {id, ref, title, type,
// properties, validations, attachment, layout}, with the properties and
// validations each type accepts.

const description = { description: boundedText(inputLimits.text).optional() };
const required = { required: z.boolean().optional() };
const maxLength = { max_length: z.int().positive().optional() };

export const choiceSchema = z.strictObject({
  id: boundedText(inputLimits.id).optional(),
  ref: boundedText(inputLimits.id).min(1).optional(),
  label: boundedText(inputLimits.text, { error: 'label is required' }).min(1, 'label is required'),
  attachment: attachmentSchema.optional(),
});
export type ChoiceInput = z.infer<typeof choiceSchema>;

const common = {
  id: boundedText(inputLimits.id).optional(),
  ref: boundedText(inputLimits.id).min(1).optional(),
  title: boundedText(inputLimits.text, { error: 'title is required' }),
  attachment: attachmentSchema.optional(),
  layout: layoutSchema.optional(),
};

const field = <T extends string, P extends z.ZodRawShape, V extends z.ZodRawShape>(
  type: T,
  properties: P,
  validations: V,
) =>
  z.strictObject({
    ...common,
    type: z.literal(type),
    properties: z.strictObject(properties).optional(),
    validations: z.strictObject(validations).optional(),
  });

const choices = z.array(choiceSchema).min(1, 'at least one choice').max(inputLimits.choices);

// Choices, one or several, with an optional "other": multiple_choice and picture_choice.
const selectionRules = (
  value: {
    properties?: { choices?: unknown };
    validations?: { min_selection?: number; max_selection?: number };
  },
  ctx: z.RefinementCtx,
) => {
  const { min_selection: min, max_selection: max } = value.validations ?? {};
  if (min !== undefined && max !== undefined && min > max) {
    ctx.addIssue({
      code: 'custom',
      path: ['validations', 'min_selection'],
      message: 'must not exceed max_selection',
    });
  }
  if (!value.properties?.choices) {
    ctx.addIssue({ code: 'custom', path: ['properties', 'choices'], message: 'choices are required' });
  }
};
const selectionValidations = {
  ...required,
  min_selection: z.int().positive().optional(),
  max_selection: z.int().positive().optional(),
};

const multipleChoice = field(
  'multiple_choice',
  {
    ...description,
    randomize: z.boolean().optional(),
    allow_multiple_selection: z.boolean().optional(),
    allow_other_choice: z.boolean().optional(),
    vertical_alignment: z.boolean().optional(),
    choices,
  },
  selectionValidations,
).superRefine(selectionRules);

const pictureChoice = field(
  'picture_choice',
  {
    ...description,
    randomize: z.boolean().optional(),
    allow_multiple_selection: z.boolean().optional(),
    allow_other_choice: z.boolean().optional(),
    supersized: z.boolean().optional(),
    show_labels: z.boolean().optional(),
    choices,
  },
  selectionValidations,
).superRefine(selectionRules);

// A ranking orders its choices; its answer is every choice, in the respondent's order.
const ranking = field(
  'ranking',
  { ...description, randomize: z.boolean().optional(), choices },
  required,
).superRefine((value, ctx) => {
  if (!value.properties?.choices) {
    ctx.addIssue({ code: 'custom', path: ['properties', 'choices'], message: 'choices are required' });
  }
});

const dropdown = field(
  'dropdown',
  { ...description, randomize: z.boolean().optional(), alphabetical_order: z.boolean().optional(), choices },
  required,
).superRefine((value, ctx) => {
  if (!value.properties?.choices) {
    ctx.addIssue({ code: 'custom', path: ['properties', 'choices'], message: 'choices are required' });
  }
});

const number = field('number', description, {
  ...required,
  min_value: z.number().optional(),
  max_value: z.number().optional(),
}).superRefine((value, ctx) => {
  const { min_value: min, max_value: max } = value.validations ?? {};
  if (min !== undefined && max !== undefined && min > max) {
    ctx.addIssue({
      code: 'custom',
      path: ['validations', 'min_value'],
      message: 'must not exceed max_value',
    });
  }
});

const scaleLabels = z
  .strictObject({
    left: boundedText(inputLimits.text).optional(),
    center: boundedText(inputLimits.text).optional(),
    right: boundedText(inputLimits.text).optional(),
  })
  .optional();

// Where a payment's amount comes from: the form's `price` variable, as Typeform's.
const paymentPrice = z.strictObject({ type: z.literal('variable'), value: z.literal('price') });

// Calendly's application block as Typeform's form JSON carries it: data to
// keep and give back; the page never loads it (no third-party content).
const calendlyApplication = z.strictObject({
  id: boundedText(inputLimits.id).optional(),
  application_block_id: boundedText(inputLimits.id).optional(),
  installation_id: boundedText(inputLimits.id).optional(),
  iframe_url: z
    .url({ protocol: /^https?$/ })
    .max(inputLimits.url)
    .optional(),
  inputs: z
    .array(
      z.strictObject({
        ref: boundedText(inputLimits.id).optional(),
        label: boundedText(inputLimits.text).optional(),
        value: boundedText(inputLimits.text).optional(),
      }),
    )
    .max(inputLimits.choices)
    .optional(),
});

const textValidations = { ...required, ...maxLength };

// Every simple type: one question, one answer.
const simpleQuestions = [
  field('short_text', description, textValidations),
  field('long_text', description, textValidations),
  field('email', description, required),
  number,
  multipleChoice,
  pictureChoice,
  dropdown,
  ranking,
  field('yes_no', description, required),
  field(
    'rating',
    { ...description, steps: z.int().min(3).max(10).optional(), shape: z.enum(ratingShapes).optional() },
    required,
  ),
  field(
    'opinion_scale',
    {
      ...description,
      steps: z.int().min(5).max(11).optional(),
      start_at_one: z.boolean().optional(),
      labels: scaleLabels,
    },
    required,
  ),
  // Net Promoter Score: always 0 to 10.
  field('nps', { ...description, labels: scaleLabels }, required),
  field(
    'date',
    {
      ...description,
      structure: z.enum(dateStructures).optional(),
      separator: z.enum(dateSeparators).optional(),
    },
    required,
  ),
  field('phone_number', { ...description, default_country_code: z.string().length(2).optional() }, required),
  field('website', description, required),
  field('legal', description, required),
  field(
    'statement',
    {
      ...description,
      button_text: boundedText(inputLimits.text).optional(),
      hide_marks: z.boolean().optional(),
    },
    {},
  ),
  // Declared here (properties, answer `file_url`); storing the files is the files API's.
  field('file_upload', description, required),
  field(
    'payment',
    {
      ...description,
      currency: z.enum(paymentCurrencies).optional(),
      price: paymentPrice.optional(),
      show_button: z.boolean().optional(),
      button_text: boundedText(inputLimits.text).optional(),
    },
    required,
  ),
  // Typeform's video and audio question: answered with a recording (uploaded
  // through the files API, as a file_upload's file) or with typed text.
  field('multi_format', description, required),
  z.strictObject({
    ...common,
    type: z.literal('calendly'),
    properties: z.strictObject(description).optional(),
    validations: z.strictObject(required).optional(),
    application: calendlyApplication.optional(),
  }),
] as const;

// A line of a contact_info or address block: a question of its own, marked
// with the line it is (subfield_key).
const subfield = <T extends 'short_text' | 'email' | 'phone_number'>(type: T, keys: readonly string[]) =>
  field(
    type,
    {
      ...description,
      subfield_key: z.enum(keys as [string, ...string[]]).optional(),
      ...(type === 'phone_number' ? { default_country_code: z.string().length(2).optional() } : {}),
    },
    type === 'short_text' ? textValidations : required,
  );
const contactLine = z.discriminatedUnion('type', [
  subfield('short_text', contactInfoSubfields),
  subfield('email', contactInfoSubfields),
  subfield('phone_number', contactInfoSubfields),
]);
const addressLine = subfield('short_text', addressSubfields);

const composite = <T extends string, F extends z.ZodType>(type: T, inner: F, max: number) =>
  z.strictObject({
    ...common,
    type: z.literal(type),
    properties: z
      .strictObject({ ...description, fields: z.array(inner).min(1).max(max).optional() })
      .optional(),
  });

// A matrix: its rows are multiple_choice questions whose choices are the columns.
const matrix = z
  .strictObject({
    ...common,
    type: z.literal('matrix'),
    properties: z.strictObject({
      ...description,
      randomize: z.boolean().optional(),
      fields: z.array(multipleChoice).min(1, 'a matrix needs at least one row').max(inputLimits.choices),
    }),
  })
  .superRefine((value, ctx) => {
    const columns = (row: (typeof value.properties.fields)[number]) =>
      (row.properties?.choices ?? []).map((choice) => choice.label).join('\n');
    value.properties.fields.forEach((row, i) => {
      if (i > 0 && columns(row) !== columns(value.properties.fields[0])) {
        ctx.addIssue({
          code: 'custom',
          path: ['properties', 'fields', i, 'properties', 'choices'],
          message: 'every row of a matrix has the same choices (its columns)',
        });
      }
    });
  });

// Every type but `group`, which may hold these and nothing else (no nested
// groups, and no payment, as Typeform's reference says).
export const questionSchema = z.discriminatedUnion('type', [
  ...simpleQuestions,
  matrix,
  composite('contact_info', contactLine, contactInfoSubfields.length),
  composite('address', addressLine, addressSubfields.length),
]);
export type QuestionInput = z.infer<typeof questionSchema>;

export const groupSchema = z.strictObject({
  ...common,
  type: z.literal('group'),
  properties: z.strictObject({
    ...description,
    button_text: boundedText(inputLimits.text).optional(),
    show_button: z.boolean().optional(),
    fields: z
      .array(questionSchema)
      .max(inputLimits.fields)
      .superRefine((fields, ctx) =>
        fields.forEach((inner, i) => {
          if (inner.type === 'payment')
            ctx.addIssue({ code: 'custom', path: [i, 'type'], message: 'a group cannot hold a payment' });
        }),
      ),
  }),
});
export type GroupInput = z.infer<typeof groupSchema>;

export const fieldSchema = z.discriminatedUnion('type', [...questionSchema.options, groupSchema]);
export type FieldInput = z.infer<typeof fieldSchema>;
