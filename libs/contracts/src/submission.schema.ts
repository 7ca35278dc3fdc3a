import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';

// The body of POST /forms/{form_id}/submissions, validated by the responses
// service; here so that the gateway's API document shows the same schema.

// A submission, modelled on Typeform's response JSON: answers name their field
// by id or ref and carry one value under the key of their type.
const fieldReference = z
  .strictObject({
    id: boundedText(inputLimits.id).optional(),
    ref: boundedText(inputLimits.id).optional(),
    type: boundedText(inputLimits.name).optional(),
  })
  .refine((field) => field.id !== undefined || field.ref !== undefined, {
    error: 'name the field by id or ref',
  });

const choiceValue = z
  .strictObject({
    id: boundedText(inputLimits.id).optional(),
    ref: boundedText(inputLimits.id).optional(),
    label: boundedText(inputLimits.text).optional(),
    other: boundedText(inputLimits.answerShort).optional(),
  })
  .refine(
    (c) => c.id !== undefined || c.ref !== undefined || c.label !== undefined || c.other !== undefined,
    {
      error: 'name the choice by id, ref or label, or give `other`',
    },
  );

const choicesValue = z.strictObject({
  ids: z.array(boundedText(inputLimits.id)).max(inputLimits.answerChoices).optional(),
  refs: z.array(boundedText(inputLimits.id)).max(inputLimits.answerChoices).optional(),
  labels: z.array(boundedText(inputLimits.text)).max(inputLimits.answerChoices).optional(),
  other: boundedText(inputLimits.answerShort).optional(),
});

// A payment as Typeform records it: the amount charged, as a decimal string,
// the card's last four digits and the payer's name. Recorded, never charged.
const paymentValue = z.strictObject({
  amount: boundedText(32),
  last4: boundedText(4).optional(),
  name: boundedText(inputLimits.answerShort).optional(),
  success: z.boolean().optional(),
});

// A multi_format (video and audio) answer: the recording's file_url, as a
// file_upload answers (video or audio), or the respondent's text instead.
const multiFormatValue = z.strictObject({
  format: z.enum(['video', 'audio', 'text']),
  file_url: boundedText(inputLimits.url).optional(),
  text: boundedText(inputLimits.answerText).optional(),
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
  'file_url',
  'payment',
  'multi_format',
] as const;
export type AnswerType = (typeof answerTypes)[number];

export const answerInputSchema = z.strictObject({
  field: fieldReference,
  type: z.enum(answerTypes),
  text: boundedText(inputLimits.answerText).optional(),
  email: boundedText(inputLimits.answerShort).optional(),
  number: z.number().optional(),
  boolean: z.boolean().optional(),
  choice: choiceValue.optional(),
  choices: choicesValue.optional(),
  date: boundedText(inputLimits.answerShort).optional(),
  url: boundedText(inputLimits.url).optional(),
  phone_number: boundedText(inputLimits.answerShort).optional(),
  file_url: boundedText(inputLimits.url).optional(),
  payment: paymentValue.optional(),
  multi_format: multiFormatValue.optional(),
});
export type AnswerInput = z.infer<typeof answerInputSchema>;

// The respondent's own key of one response in progress, made at random by the
// page: every partial save and the final submission that name it are one
// response (the final one completes it). Whoever holds it can add to that
// response until it is completed, so it is long and random, like a password.
export const progressKeySchema = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[\w-]+$/, 'letters, digits, "_" and "-" only');

export const submissionSchema = z.strictObject({
  progress_key: progressKeySchema.optional(),
  landed_at: z.iso.datetime({ offset: true }).max(inputLimits.name).optional(),
  hidden: z
    .record(boundedText(inputLimits.name), boundedText(inputLimits.hiddenValue))
    .refine((hidden) => Object.keys(hidden).length <= inputLimits.hidden, {
      error: `at most ${inputLimits.hidden} hidden values`,
    })
    .meta({ maxProperties: inputLimits.hidden })
    .optional(),
  answers: z.array(answerInputSchema).max(inputLimits.answers).default([]),
});
export type Submission = z.infer<typeof submissionSchema>;

// The body of POST /forms/{form_id}/submissions/partial: the answers so far,
// under the key that names the response in progress.
export const partialSubmissionSchema = submissionSchema.extend({ progress_key: progressKeySchema });
