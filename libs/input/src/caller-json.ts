import { textProblem } from './caller-text';
import { isPrototypeKey } from './prototype-keys';

export interface CallerJsonProblem {
  /** Where, as the error details name fields: `answers[0].text`. */
  field: string;
  description: string;
}

// Checks parsed caller JSON without recursion: no key that reaches a
// prototype, no key or string that cannot be stored (NUL, lone surrogates),
// no deeper than `maxDepth`. Visits only own properties; linear in the size
// of the value. Returns the first problem, or undefined.
export function findCallerJsonProblem(value: unknown, maxDepth: number): CallerJsonProblem | undefined {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') {
      const problem = textProblem(item.value);
      if (problem) return { field: item.path, description: `the value ${problem}` };
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth >= maxDepth)
      return { field: item.path, description: `nested deeper than ${maxDepth} levels` };
    if (Array.isArray(item.value)) {
      item.value.forEach((element, index) =>
        pending.push({ value: element, path: `${item.path}[${index}]`, depth: item.depth + 1 }),
      );
      continue;
    }
    for (const key of Object.keys(item.value)) {
      const path = item.path ? `${item.path}.${key}` : key;
      if (isPrototypeKey(key))
        return { field: path, description: `${key} is not accepted as a property name` };
      const problem = textProblem(key);
      if (problem) return { field: item.path, description: `a property name ${problem}` };
      pending.push({ value: (item.value as Record<string, unknown>)[key], path, depth: item.depth + 1 });
    }
  }
  return undefined;
}
