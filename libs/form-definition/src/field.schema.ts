import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';
import { dateSeparators, dateStructures, ratingShapes } from './enums';
import { attachmentSchema, layoutSchema } from './media.schema';

// Questions and blocks, after Typeform's field model: {id, ref, title, type,
// properties, validations, attachment, layout}, with the properties and
// validations each type accepts. SPEC leaves the shape "not shown".

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
  { ...required, min_selection: z.int().positive().optional(), max_selection: z.int().positive().optional() },
).superRefine((value, ctx) => {
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

// Every type but `group`, which may hold these and nothing else (no nested groups).
export const questionSchema = z.discriminatedUnion('type', [
  field('short_text', description, { ...required, ...maxLength }),
  field('long_text', description, { ...required, ...maxLength }),
  field('email', description, required),
  number,
  multipleChoice,
  dropdown,
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
      labels: z
        .strictObject({
          left: boundedText(inputLimits.text).optional(),
          center: boundedText(inputLimits.text).optional(),
          right: boundedText(inputLimits.text).optional(),
        })
        .optional(),
    },
    required,
  ),
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
]);
export type QuestionInput = z.infer<typeof questionSchema>;

export const groupSchema = z.strictObject({
  ...common,
  type: z.literal('group'),
  properties: z.strictObject({
    ...description,
    button_text: boundedText(inputLimits.text).optional(),
    show_button: z.boolean().optional(),
    fields: z.array(questionSchema).max(inputLimits.fields),
  }),
});
export type GroupInput = z.infer<typeof groupSchema>;

export const fieldSchema = z.discriminatedUnion('type', [...questionSchema.options, groupSchema]);
export type FieldInput = z.infer<typeof fieldSchema>;
