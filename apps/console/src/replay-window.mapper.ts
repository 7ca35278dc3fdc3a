import { type ConsoleTexts, englishTexts } from './console.texts';

// The window of "Replay failed deliveries" as the browser's date-and-time
// inputs give it (local time, no zone: "2026-01-01T10:30") into the API's
// body, in UTC: the API reads a time without a zone as UTC, so sending the
// inputs' text as it is would move the window by the browser's offset.
export interface ReplayWindow {
  since: string;
  until?: string;
}

export type ReplayWindowResult = { ok: true; body: ReplayWindow } | { ok: false; message: string };

export function replayWindowOf(
  sinceLocal: string,
  untilLocal: string,
  { t }: ConsoleTexts = englishTexts,
): ReplayWindowResult {
  const since = localTime(sinceLocal);
  if (!since) return { ok: false, message: t('replay.noSince') };
  if (untilLocal === '') return { ok: true, body: { since: since.toISOString() } };
  const until = localTime(untilLocal);
  if (!until) return { ok: false, message: t('replay.badUntil') };
  // An end to the minute means through that minute (the API takes its second).
  if (untilLocal.length === 16) until.setSeconds(59);
  if (until < since) return { ok: false, message: t('replay.backwards') };
  return { ok: true, body: { since: since.toISOString(), until: until.toISOString() } };
}

/** The value of a datetime-local input for a moment, in the browser's time (to the minute). */
export function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

// Only the input's own shape: a date, a time to the minute or second.
const localPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

function localTime(value: string): Date | undefined {
  if (!localPattern.test(value)) return undefined;
  // Without a zone, Date reads a date-time as local time, as the input meant it.
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
