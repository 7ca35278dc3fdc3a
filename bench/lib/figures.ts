import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { median, round } from './stats';

// One line of the bench's table and of its JSON.
export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The same work done by the least that can do it, measured in the same run. */
  baseline: number | null;
  /** The median of the rounds' own formline/baseline ratios. */
  ratio: number | null;
  /** What the issue asks, e.g. ">= 0.5 of baseline" or "< 20 ms"; null: for information. */
  target: string | null;
  met: boolean | null;
  rounds: { formline: number[]; baseline?: number[] };
  cores: number;
  /** 1, 5 and 15 minute load averages when the figure was taken: a busy machine shows here. */
  loadAverage: number[];
  /** What the value does not say, e.g. requests that failed. */
  note?: string;
}

export type Target = {
  kind: 'ratio-at-least' | 'ratio-at-most' | 'value-below' | 'value-at-most' | 'value-at-least';
  bound: number;
} | null;

// A figure from rounds: medians of each side, their ratio, and the target checked.
// `paired`: each round ran with its own baseline round (the ratio is the
// median of theirs); otherwise the rounds are samples of each side apart,
// and the ratio is that of their medians.
export function figure(
  name: string,
  unit: string,
  formline: number[],
  baseline: number[] | undefined,
  target: Target,
  paired = true,
): Figure {
  const value = median(formline);
  const base = baseline ? median(baseline) : null;
  // The median of each round's own ratio: a round and its baseline run back to
  // back, so a machine whose load drifts between rounds skews both alike.
  const ratio =
    paired && baseline && baseline.length === formline.length
      ? median(formline.map((v, i) => v / baseline[i]))
      : base
        ? value / base
        : null;
  let met: boolean | null = null;
  let text: string | null = null;
  if (target?.kind === 'ratio-at-least') {
    met = ratio !== null && ratio >= target.bound;
    text = `>= ${target.bound} x baseline`;
  } else if (target?.kind === 'ratio-at-most') {
    met = ratio !== null && ratio <= target.bound;
    text = `<= ${target.bound} x baseline`;
  } else if (target?.kind === 'value-below') {
    met = value < target.bound;
    text = `< ${target.bound} ${unit}`;
  } else if (target?.kind === 'value-at-most') {
    met = value <= target.bound;
    text = `<= ${target.bound} ${unit}`;
  } else if (target?.kind === 'value-at-least') {
    met = value >= target.bound;
    text = `>= ${target.bound} ${unit}`;
  }
  return {
    name,
    value: round(value, 2),
    unit,
    baseline: base === null ? null : round(base, 2),
    ratio: ratio === null ? null : round(ratio, 3),
    target: text,
    met,
    rounds: {
      formline: formline.map((v) => round(v, 2)),
      ...(baseline ? { baseline: baseline.map((v) => round(v, 2)) } : {}),
    },
    cores: cpus().length,
    loadAverage: loadavg().map((v) => round(v, 2)),
  };
}

export function printTable(figures: Figure[]): void {
  const rows = [
    ['figure', 'formline', 'baseline', 'ratio', 'target', 'met'],
    ...figures.map((f) => [
      f.name,
      `${f.value} ${f.unit}`,
      f.baseline === null ? '-' : `${f.baseline} ${f.unit}`,
      f.ratio === null ? '-' : String(f.ratio),
      f.target ?? '-',
      f.met === null ? '-' : f.met ? 'yes' : 'NO',
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ');
  process.stdout.write(`\n${line(rows[0])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows.slice(1)) process.stdout.write(`${line(row)}\n`);
  for (const f of figures.filter((f) => f.note)) process.stdout.write(`  ${f.name}: ${f.note}\n`);
}

export function writeResults(dir: string, figures: Figure[], settings: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(dir, `${stamp}.json`);
  writeFileSync(
    file,
    // The Node.js the bench and the apps ran on: runs on two lines are compared by it.
    `${JSON.stringify({ date: new Date().toISOString(), cores: cpus().length, node: process.version, settings, figures }, null, 2)}\n`,
  );
  return file;
}
