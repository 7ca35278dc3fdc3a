import type { InsightsAnswers, InsightsSummary } from '@formline/contracts';

export type AnswersField = InsightsAnswers['fields'][number];
export type PlatformFigures = InsightsSummary['form']['platforms'][number];

/** One row of a question's distribution: the answer in words, its count, its share of the question's answers. */
export interface DistributionRow {
  label: string;
  count: number;
  /** 0 to 100, whole: the width of the row's bar. */
  percent: number;
}

const platformNames: Record<PlatformFigures['platform'], string> = {
  desktop: 'Desktop',
  phone: 'Phone',
  tablet: 'Tablet',
  other: 'Other',
};

export function platformInWords(platform: PlatformFigures['platform']): string {
  return platformNames[platform];
}

/** The API's completion rate is a percentage with one decimal at most. */
export function rateInWords(rate: number): string {
  return `${Number.isInteger(rate) ? rate : rate.toFixed(1)}%`;
}

/** The API's average time is whole seconds; none without a completed response. */
export function durationInWords(seconds: number, responses: number): string {
  if (responses === 0) return 'None yet';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

// A question's answers, each with the responses giving it, in the form's
// order (choices, then "other"; a scale's values low to high; yes before
// no as the API lists them). A number question has no distribution: none.
export function distributionOf(field: AnswersField): DistributionRow[] {
  const rows: Array<Omit<DistributionRow, 'percent'>> = [
    ...(field.choices ?? []).map((choice) => ({ label: choice.label || choice.ref, count: choice.count })),
    ...(field.other_count === undefined ? [] : [{ label: 'Other', count: field.other_count }]),
    ...(field.values ?? []).map((value) => ({ label: valueInWords(value.value), count: value.count })),
  ];
  const total = field.answers_count;
  return rows.map((row) => ({
    ...row,
    percent: total > 0 ? Math.min(100, Math.round((row.count / total) * 100)) : 0,
  }));
}

function valueInWords(value: number | boolean): string {
  if (value === true) return 'Yes';
  if (value === false) return 'No';
  return String(value);
}
