// Form versions travel as ETags, so clients can make a write conditional with
// If-Match and never overwrite a change they have not seen.

export function etagOf(version: number): string {
  return `"${version}"`;
}

// The version an If-Match header names; undefined when there is none (or `*`),
// which makes the write unconditional. A value that is not one of our ETags
// can never match: it is read as version -1.
export function versionFromIfMatch(header: string | string[] | undefined): number | undefined {
  if (header === undefined || header.length === 0) return undefined;
  const value = (Array.isArray(header) ? header[0] : header).trim();
  if (value === '*') return undefined;
  const match = /^(?:W\/)?"(\d+)"$/.exec(value);
  return match ? Number(match[1]) : -1;
}
