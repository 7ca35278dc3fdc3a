// Reads `Authorization: Basic base64(user:password)` (RFC 7617). The scheme is
// matched case-insensitively; anything malformed is no credentials at all.
export function basicCredentialsFrom(
  header: string | string[] | undefined,
): { user: string; password: string } | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header.trim());
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
