// WWW-Authenticate challenges (RFC 6750 3 for bearer tokens, RFC 7617 for
// Basic). A request with no credentials gets no error attribute (RFC 6750 3.1).
const realm = 'realm="formline"';

export function bearerChallenge(
  error?: 'invalid_token' | 'insufficient_scope',
  description?: string,
  scope?: string,
): string {
  const parts = [`Bearer ${realm}`];
  if (error) parts.push(`error="${error}"`);
  if (description) parts.push(`error_description="${description.replace(/["\\]/g, '')}"`);
  if (scope) parts.push(`scope="${scope}"`);
  return parts.join(', ');
}

export function basicChallenge(): string {
  return `Basic ${realm}, charset="UTF-8"`;
}
