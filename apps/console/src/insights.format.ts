import type { InsightsAnswers, InsightsSummary } from '@formline/contracts';
import { type ConsoleTexts, englishTexts, type TextKey } from './console.texts';

export type AnswersField = InsightsAnswers['fields'][number];
export type PlatformFigures = InsightsSummary['form']['platforms'][number];

/** One row of a question's distribution: the answer in words, its count, its share of the question's answers. */
export interface DistributionRow {
  label: string;
  count: number;
  /** 0 to 100, whole: the width of the row's bar. */
  percent: number;
}

const platformNames = {
  desktop: 'insights.desktop',
  phone: 'insights.phone',
  tablet: 'insights.tablet',
  other: 'insights.otherPlatform',
} as const satisfies Record<PlatformFigures['platform'], TextKey>;

export function platformInWords(
  platform: PlatformFigures['platform'],
  texts: ConsoleTexts = englishTexts,
): string {
  return texts.t(platformNames[platform]);
}

/** The API's completion rate is a percentage with one decimal at most. */
export function rateInWords(rate: number, texts: ConsoleTexts = englishTexts): string {
  return texts.t('insights.rate', { rate: Number.isInteger(rate) ? rate : Number(rate.toFixed(1)) });
}

/** The API's average time is whole seconds; none without a completed response. */
export function durationInWords(
  seconds: number,
  responses: number,
  texts: ConsoleTexts = englishTexts,
): string {
  if (responses === 0) return texts.t('insights.noneYet');
  if (seconds < 60) return texts.t('duration.seconds', { seconds });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return texts.t('duration.minutes', { minutes, seconds: seconds % 60 });
  return texts.t('duration.hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

// A question's answers, each with the responses giving it, in the form's
// order (choices, then "other"; a scale's values low to high; yes before
// no as the API lists them). A number question has no distribution: none.
export function distributionOf(field: AnswersField, texts: ConsoleTexts = englishTexts): DistributionRow[] {
  const rows: Array<Omit<DistributionRow, 'percent'>> = [
    ...(field.choices ?? []).map((choice) => ({ label: choice.label || choice.ref, count: choice.count })),
    ...(field.other_count === undefined
      ? []
      : [{ label: texts.t('answer.other'), count: field.other_count }]),
    ...(field.values ?? []).map((value) => ({ label: valueInWords(value.value, texts), count: value.count })),
  ];
  const total = field.answers_count;
  return rows.map((row) => ({
    ...row,
    percent: total > 0 ? Math.min(100, Math.round((row.count / total) * 100)) : 0,
  }));
}

function valueInWords(value: number | boolean, texts: ConsoleTexts): string {
  if (value === true) return texts.t('answer.yes');
  if (value === false) return texts.t('answer.no');
  return String(value);
}
