import { type InsightsSummary, insightsPlatforms } from '@formline/contracts';
import { allFields, type FormDefinition } from '@formline/form-definition';
import type { FieldCounts, PlatformCounts } from './insights.repository';

type Counters = InsightsSummary['form']['summary'];

// Typeform's Insights summary from the counts of stored responses. No page
// visits are recorded (the respondent's page reports nothing before a
// submission), so a visit is a landing we know of: a stored response,
// completed or not; `unique_visits` is the same number.
export function summarizeInsights(
  definition: FormDefinition,
  platforms: readonly PlatformCounts[],
  answered: readonly FieldCounts[],
  leftAfter: readonly FieldCounts[],
): InsightsSummary {
  const byPlatform = new Map<string, PlatformCounts[]>();
  for (const row of platforms) {
    const name = (insightsPlatforms as readonly string[]).includes(row.platform) ? row.platform : 'other';
    byPlatform.set(name, [...(byPlatform.get(name) ?? []), row]);
  }
  const views = new Map(answered.map((row) => [row.fieldId, row.count]));
  const dropoffs = new Map(leftAfter.map((row) => [row.fieldId, row.count]));
  const questions = allFields(definition.fields).filter((f) => f.type !== 'statement' && f.type !== 'group');
  return {
    fields: questions.map((field) => ({
      id: field.id,
      ref: field.ref,
      title: field.title,
      type: field.type,
      dropoffs: dropoffs.get(field.id) ?? 0,
      views: views.get(field.id) ?? 0,
    })),
    form: {
      platforms: insightsPlatforms.map((platform) => ({
        platform,
        ...counters(byPlatform.get(platform) ?? []),
      })),
      summary: counters(platforms),
    },
  };
}

function counters(rows: readonly PlatformCounts[]): Counters {
  const landings = sum(rows.map((row) => row.landings));
  const completed = sum(rows.map((row) => row.completed));
  const timed = rows.filter((row) => row.averageSeconds !== null && row.completed > 0);
  const seconds = sum(timed.map((row) => (row.averageSeconds ?? 0) * row.completed));
  const timedCount = sum(timed.map((row) => row.completed));
  return {
    average_time: timedCount > 0 ? Math.round(seconds / timedCount) : 0,
    completion_rate: landings > 0 ? Math.round((completed / landings) * 1000) / 10 : 0,
    responses_count: completed,
    total_visits: landings,
    unique_visits: landings,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
