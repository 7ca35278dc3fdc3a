// The formats an answer must have, shared by the responses service (which
// refuses a submission) and the respondent's page (which tells the respondent
// at once), so both accept exactly the same answers. Every check is linear in
// the answer's length.

// someone@some.where: one @, something before it, a dot inside the domain, no
// whitespace. Written out rather than as a regex: the obvious pattern
// backtracks quadratically on "a@" followed by many dots (lint forbids it).
export function isEmailAddress(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@') || /\s/.test(value)) return false;
  return value.slice(at + 2, -1).includes('.');
}

export function isWebUrl(value: string): boolean {
  return /^https?:\/\/\S+$/.test(value) && URL.canParse(value);
}

// E.164: a plus, then 7 to 15 digits, not starting with 0.
export function isPhoneNumber(value: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(value);
}

// YYYY-MM-DD that names a real day (no 2026-02-30).
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}
