/** An absolute http(s) address the page may link to or go to; nothing else (no javascript:). */
export const isHttpUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\//i.test(value) && URL.canParse(value);
