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
