import { leadingWithin } from './bounded-runs';
import { inputLimits, jsonBytes } from './input-limits';

// A page travels as one NATS message (1 MB at most): it holds as many of its
// items as fit in inputLimits.pageBytes once serialised, and always the first
// read. A page read from its cursor in the order opposite to the one shown
// (an `after` cursor, read upwards and shown newest first) keeps its last
// items, those nearest the cursor, so the next page skips none. A client that
// gets fewer items than it asked for pages on from the last one it got.
export function itemsWithinPageBytes<T>(items: readonly T[], nearestLast: boolean): T[] {
  const read = nearestLast ? [...items].reverse() : [...items];
  const page = read.slice(
    0,
    leadingWithin(read, (item) => jsonBytes(item) + 1, inputLimits.pageBytes),
  );
  return nearestLast ? page.reverse() : page;
}
