import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// Typeform's Insights API summary (GET /insights/{form_id}/summary), as its
// SDK types it: counters for the form, per platform, and per question.
const formInsightsSchema = z.object({
  average_time: z.number(),
  completion_rate: z.number(),
  responses_count: z.int(),
  total_visits: z.int(),
  unique_visits: z.int(),
});

export const insightsPlatforms = ['desktop', 'other', 'phone', 'tablet'] as const;

export const insightsSummarySchema = z.object({
  fields: z.array(
    z.object({
      id: z.string(),
      ref: z.string(),
      title: z.string(),
      type: z.string(),
      dropoffs: z.int(),
      views: z.int(),
    }),
  ),
  form: z.object({
    platforms: z.array(formInsightsSchema.extend({ platform: z.enum(insightsPlatforms) })),
    summary: formInsightsSchema,
  }),
});
export type InsightsSummary = z.output<typeof insightsSummarySchema>;

export const getInsightsSummary = defineRpc({
  subject: Subjects.responsesInsightsSummary,
  request: z.object({ accountId: z.string().min(1), formId: z.string().min(1) }),
  reply: insightsSummarySchema,
});

// Not in Typeform's API (its Insights API has the summary only): the
// distribution of a form's answers, per question whose answers are a bounded
// set (choices, yes/no, a scale), and the count and average of a number
// question's answers. Of completed responses, as the summary's
// `responses_count`. Shaped as the summary is: snake_case, fields by
// id/ref/title/type.
export const insightsAnswersFieldTypes = [
  'multiple_choice',
  'dropdown',
  'picture_choice',
  'yes_no',
  'rating',
  'opinion_scale',
  'nps',
  'number',
] as const;

export const insightsAnswersSchema = z.object({
  form: z.object({
    responses_count: z.int().describe("Completed responses: what each question's counts are out of."),
  }),
  fields: z.array(
    z.object({
      id: z.string(),
      ref: z.string(),
      title: z.string(),
      type: z.enum(insightsAnswersFieldTypes),
      answers_count: z.int().describe('Completed responses that answer the question.'),
      choices: z
        .array(z.object({ id: z.string(), ref: z.string(), label: z.string(), count: z.int() }))
        .optional()
        .describe(
          "Multiple choice, dropdown, picture choice: the form's choices in order, each with the responses picking it.",
        ),
      other_count: z
        .int()
        .optional()
        .describe('A choice question that allows "other": the responses answering it.'),
      values: z
        .array(z.object({ value: z.union([z.number(), z.boolean()]), count: z.int() }))
        .optional()
        .describe(
          'Yes/no, rating, opinion scale, NPS: every answer it takes, in order, with the responses giving it.',
        ),
      average: z
        .number()
        .nullable()
        .optional()
        .describe('Number, rating, opinion scale, NPS: the mean of the numbers given; null with no answer.'),
    }),
  ),
});
export type InsightsAnswers = z.output<typeof insightsAnswersSchema>;

export const getInsightsAnswers = defineRpc({
  subject: Subjects.responsesInsightsAnswers,
  request: z.object({ accountId: z.string().min(1), formId: z.string().min(1) }),
  reply: insightsAnswersSchema,
});
