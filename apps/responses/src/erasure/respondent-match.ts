// Whether a stored response holds one of the respondent's email addresses,
// by the rule of Typeform's RTBF endpoint: an email answer, a hidden field or
// a text variable that equals it, or a text answer that contains it; case
// insensitive. `emails` are lower-cased already. The response is caller JSON
// once stored: read with Object.hasOwn and type checks only.
export function holdsRespondentEmail(payload: unknown, emails: readonly string[]): boolean {
  if (!isRecord(payload)) return false;
  const equals = (value: unknown) => typeof value === 'string' && emails.includes(value.toLowerCase());
  const contains = (value: unknown) =>
    typeof value === 'string' && emails.some((email) => value.toLowerCase().includes(email));
  const answers = own(payload, 'answers');
  if (Array.isArray(answers)) {
    for (const answer of answers) {
      if (!isRecord(answer)) continue;
      if (equals(own(answer, 'email')) || contains(own(answer, 'text'))) return true;
    }
  }
  const hidden = own(payload, 'hidden');
  if (isRecord(hidden) && Object.keys(hidden).some((key) => equals(hidden[key]))) return true;
  const variables = own(payload, 'variables');
  if (Array.isArray(variables)) {
    for (const variable of variables) {
      if (isRecord(variable) && own(variable, 'type') === 'text' && equals(own(variable, 'text')))
        return true;
    }
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
