import type { z } from 'zod';
import type { ErrorDetail } from './domain-error';

// Turns schema issues into `details` entries that name the offending path,
// e.g. `settings.milestones` or `fields[2].title`.
export function detailsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  location: ErrorDetail['in'],
): ErrorDetail[] {
  return issues.map((issue) => ({
    code: issue.code.toUpperCase(),
    description: issue.message,
    field: formatPath(issue.path),
    in: location,
  }));
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out ? `${out}.${String(key)}` : String(key);
  }, '');
}
