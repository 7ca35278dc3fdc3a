// Typeform's timestamps are whole seconds in UTC (`2026-11-22T23:13:39Z`):
// responses and webhook payloads show them so. The database keeps the
// milliseconds, which order responses made within the same second.
export function wholeSecondsIso(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
