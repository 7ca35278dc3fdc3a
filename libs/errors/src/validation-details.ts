import type { z } from 'zod';
import type { ErrorDetail } from './domain-error';

// Turns schema issues into `details` entries that name the offending path,
// e.g. `settings.milestones` or `fields[2].title`.
export function detailsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  location: ErrorDetail['in'],
): ErrorDetail[] {
  return issues.flatMap((issue) => {
    // One detail per unknown property, naming the property itself.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        code: 'UNKNOWN_PROPERTY',
        description: `${key} is not a property of this object`,
        field: formatPath([...issue.path, key]),
        in: location,
      }));
    }
    return [
      {
        code: issue.code.toUpperCase(),
        description: issue.message,
        field: formatPath(issue.path),
        in: location,
      },
    ];
  });
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out ? `${out}.${String(key)}` : String(key);
  }, '');
}
