import { boundedText, inputLimits } from '@formline/input';
import { z } from 'zod';

// Typeform's `since`/`until`: Unix seconds, or ISO 8601 "in UTC, to the
// second". A date-time without an offset is UTC whatever the host's time zone
// (JavaScript's Date would read it as local time). One linear regex: no
// backtracking on caller input.
const isoPattern =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** The instant named, cut to its whole second; undefined when it names none. */
export function parsePointInTime(value: string): Date | undefined {
  if (/^\d{1,12}$/.test(value)) return new Date(Number(value) * 1000);
  const match = isoPattern.exec(value);
  if (!match) return undefined;
  const [, day, hours = '00', minutes = '00', seconds = '00', , zone] = match;
  // "2026-02-31" would roll over into March: refuse what the calendar lacks.
  const midnight = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight.getTime()) || midnight.toISOString().slice(0, 10) !== day) return undefined;
  const date = new Date(`${day}T${hours}:${minutes}:${seconds}${offsetOf(zone)}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function offsetOf(zone: string | undefined): string {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 'Z';
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}

/** The last millisecond of the whole second `date` is in: `until` includes its second. */
export function endOfSecond(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000 + 999);
}

// The same as a request's field: ISO 8601 date-time (UTC unless it names an
// offset), or Unix seconds, to the second; a Date once parsed.
export const pointInTime = boundedText(inputLimits.name).transform((value, ctx) => {
  const date = parsePointInTime(value);
  if (!date) {
    ctx.addIssue({ code: 'custom', message: 'an ISO 8601 date-time (UTC) or Unix seconds' });
    return z.NEVER;
  }
  return date;
});
