// A LIKE pattern matching stored JSON text (JSON.stringify's, no spaces) that
// holds `"key":"value"`. Matching the text, not the parsed JSON, never parses
// a stored row: one unparsable row (a lone surrogate escape, say) must not
// fail a query about other rows.
export function jsonStringMemberPattern(key: string, value: string): string {
  return `%${likeEscaped(JSON.stringify(key))}:${likeEscaped(JSON.stringify(value))}%`;
}

// A LIKE pattern matching text that contains `value` anywhere (an address's
// `_` or `%` taken literally).
export function containingPattern(value: string): string {
  return `%${likeEscaped(value)}%`;
}

function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
