// Reads `Authorization: bearer <token>`. The scheme is matched case-insensitively
// (RFC 7235); anything else is treated as no token at all.
export function bearerTokenFrom(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^bearer\s+(\S+)\s*$/i.exec(header.trim());
  return match?.[1];
}
