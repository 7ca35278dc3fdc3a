// What must never reach a log line: credentials (Authorization headers,
// tokens, client secrets, passwords, signing secrets, cookies) and what
// respondents answered. Applied to every line by the logger, whatever its
// author passed, so a careless `logger.log({ request })` stays harmless.

export const REDACTED = '[REDACTED]';

// Property names whose values are withheld, at any depth. `answers` and
// `hidden` hold what a respondent typed; the rest are credentials. Names only
// end in token or secret to match, so `tokenHash` and `token_type` stay.
const secretKey =
  /^(authorization|proxy-authorization|cookie|set-cookie|pass(word|wd)?|.*secrets?|secret_.*|.*tokens?|.*api[-_]?key|signature|answers|hidden)$/i;

// Secrets that hide inside free text: our token formats, bearer credentials,
// and the password part of a URL (postgresql://user:password@host).
const secretText: [RegExp, string][] = [
  [/\btf[a-z]_[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/(\/\/[^:/\s@]+:)[^@\s/]+@/g, `$1${REDACTED}@`],
];

export function redactText(text: string): string {
  return secretText.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

export function isSecretKey(key: string): boolean {
  return secretKey.test(key);
}

// A copy of `value` with secrets withheld; the original is left alone.
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 8) return '[too deep]';
  if (value instanceof Error) return redactText(value.stack ?? value.message);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      isSecretKey(key) && item !== undefined && item !== null ? REDACTED : redactValue(item, depth + 1);
  }
  return out;
}
