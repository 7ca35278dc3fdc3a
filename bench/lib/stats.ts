// Small statistics for the bench: medians of rounds, percentiles of samples.

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

// Nearest-rank percentile; NaN for no values.
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

// The wall clock with sub-millisecond resolution, comparable across processes of one machine.
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
