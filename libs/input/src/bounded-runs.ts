// How many of the items, from the first, fit both bounds: at most
// `maxItems` of them, their `size` adding up to at most `maxSize`. Always
// one when there is any (an item larger than `maxSize` goes alone).
export function leadingWithin<T>(
  items: readonly T[],
  size: (item: T) => number,
  maxSize: number,
  maxItems = Number.POSITIVE_INFINITY,
): number {
  let count = 0;
  let total = 0;
  for (const item of items) {
    const own = size(item);
    if (count > 0 && (count >= maxItems || total + own > maxSize)) break;
    count++;
    total += own;
  }
  return count;
}

// The items in consecutive runs, each within `maxSize` of their `size`
// (an item larger than that is a run of its own).
export function runsWithin<T>(items: readonly T[], size: (item: T) => number, maxSize: number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let total = 0;
  for (const item of items) {
    const own = size(item);
    if (run.length > 0 && total + own > maxSize) {
      runs.push(run);
      run = [];
      total = 0;
    }
    run.push(item);
    total += own;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
