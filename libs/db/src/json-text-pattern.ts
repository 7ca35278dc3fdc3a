// A LIKE pattern matching stored JSON text (JSON.stringify's, no spaces) that
// holds `"key":"value"`. Matching the text, not the parsed JSON, never parses
// a stored row: one unparsable row (a lone surrogate escape, say) must not
// fail a query about other rows.
export function jsonStringMemberPattern(key: string, value: string): string {
  const escape = (text: string) => text.replace(/[\\%_]/g, '\\$&');
  return `%${escape(JSON.stringify(key))}:${escape(JSON.stringify(value))}%`;
}
