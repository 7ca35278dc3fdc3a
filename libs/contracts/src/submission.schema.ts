import { z } from 'zod';

// The body of POST /forms/{form_id}/submissions, validated by the responses
// service; here so that the gateway's API document shows the same schema.

// A submission, modelled on Typeform's response JSON: answers name their field
// by id or ref and carry one value under the key of their type.
const fieldReference = z
  .strictObject({ id: z.string().optional(), ref: z.string().optional(), type: z.string().optional() })
  .refine((field) => field.id !== undefined || field.ref !== undefined, {
    error: 'name the field by id or ref',
  });

const choiceValue = z
  .strictObject({
    id: z.string().optional(),
    ref: z.string().optional(),
    label: z.string().optional(),
    other: z.string().optional(),
  })
  .refine(
    (c) => c.id !== undefined || c.ref !== undefined || c.label !== undefined || c.other !== undefined,
    {
      error: 'name the choice by id, ref or label, or give `other`',
    },
  );

const choicesValue = z.strictObject({
  ids: z.array(z.string()).optional(),
  refs: z.array(z.string()).optional(),
  labels: z.array(z.string()).optional(),
  other: z.string().optional(),
});

export const answerTypes = [
  'text',
  'email',
  'number',
  'boolean',
  'choice',
  'choices',
  'date',
  'url',
  'phone_number',
] as const;
export type AnswerType = (typeof answerTypes)[number];

export const answerInputSchema = z.strictObject({
  field: fieldReference,
  type: z.enum(answerTypes),
  text: z.string().optional(),
  email: z.string().optional(),
  number: z.number().optional(),
  boolean: z.boolean().optional(),
  choice: choiceValue.optional(),
  choices: choicesValue.optional(),
  date: z.string().optional(),
  url: z.string().optional(),
  phone_number: z.string().optional(),
});
export type AnswerInput = z.infer<typeof answerInputSchema>;

export const submissionSchema = z.strictObject({
  landed_at: z.iso.datetime({ offset: true }).optional(),
  hidden: z.record(z.string(), z.string()).optional(),
  answers: z.array(answerInputSchema).default([]),
});
export type Submission = z.infer<typeof submissionSchema>;
