// Typeform's timestamps are whole seconds in UTC (`2026-11-22T23:13:39Z`):
// responses, webhook payloads, webhook resources and the delivery log show
// them so. Databases keep the milliseconds, which order rows made within the
// same second.
export function wholeSecondsIso(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
