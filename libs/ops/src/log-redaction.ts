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

// Matches wherever any of secretText's patterns could: one test instead of
// three replacements for the usual line, which holds no secret (every log
// line's every string passes here, the gateway's access line included).
const mayHoldSecretText = /tf[a-z]_|bearer|basic|\/\/[^:/\s@]+:/i;

export function redactText(text: string): string {
  if (!mayHoldSecretText.test(text)) return text;
  return secretText.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

// Log lines use a few dozen property names: each is tested once (bounded, in
// case some line carries caller-chosen names).
const secretKeyVerdicts = new Map<string, boolean>();

export function isSecretKey(key: string): boolean {
  let verdict = secretKeyVerdicts.get(key);
  if (verdict === undefined) {
    verdict = secretKey.test(key);
    if (secretKeyVerdicts.size < 1000) secretKeyVerdicts.set(key, verdict);
  }
  return verdict;
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
