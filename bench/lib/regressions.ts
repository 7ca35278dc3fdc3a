import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Figure } from './figures';
import { round } from './stats';

// This run against the last recorded one: every figure (matched by name)
// whose value got more than 20% worse. The machine is shared, so a line here
// is a place to look, not a verdict: read it beside the ratios and the load average.

const worseBy = 0.2;

export interface RecordedRun {
  file: string;
  figures: Figure[];
}

// The newest run under `dir`, by name: the files are named by the time they
// were written (ISO, so names sort as times). Read before this run writes its own.
export function newestRecordedRun(dir: string): RecordedRun | undefined {
  if (!existsSync(dir)) return undefined;
  const newest = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .at(-1);
  if (!newest) return undefined;
  const file = path.join(dir, newest);
  const { figures } = JSON.parse(readFileSync(file, 'utf8')) as { figures: Figure[] };
  return { file, figures };
}

// Which way is better: from the figure's target if it has one, else from its
// unit (rates higher; times, sizes and counts lower). 'x' and 'cores' say
// neither by themselves (a growth, the most two dispatchers could reach):
// without a target they are not compared.
export function betterWhen(figure: Figure): 'higher' | 'lower' | undefined {
  const target = figure.target ?? '';
  if (target.startsWith('>=')) return 'higher';
  if (target.startsWith('<')) return 'lower';
  if (figure.unit.endsWith('/s')) return 'higher';
  if (['ms', 'µs', 'MB', 'requests', 'deliveries'].includes(figure.unit)) return 'lower';
  return undefined;
}

export interface Regression {
  name: string;
  before: number;
  after: number;
  unit: string;
  /** How much worse, as a fraction of the value before (Infinity from 0). */
  worse: number;
}

export function regressions(current: readonly Figure[], previous: readonly Figure[]): Regression[] {
  const before = new Map(previous.map((f) => [f.name, f]));
  const found: Regression[] = [];
  for (const figure of current) {
    const last = before.get(figure.name);
    const direction = betterWhen(figure);
    // JSON has no NaN: a figure that could not be taken is null.
    if (!last || !direction || !Number.isFinite(figure.value) || !Number.isFinite(last.value)) continue;
    const change = direction === 'higher' ? last.value - figure.value : figure.value - last.value;
    if (change <= 0) continue;
    const worse = last.value === 0 ? Number.POSITIVE_INFINITY : change / Math.abs(last.value);
    if (worse > worseBy)
      found.push({ name: figure.name, before: last.value, after: figure.value, unit: figure.unit, worse });
  }
  return found;
}

export function printRegressions(current: readonly Figure[], previous: RecordedRun | undefined): void {
  if (!previous) {
    process.stdout.write('\nno earlier run in bench/results to compare with\n');
    return;
  }
  const found = regressions(current, previous.figures);
  process.stdout.write(
    `\nworse by more than ${worseBy * 100}% than ${path.basename(previous.file)} (figures of the same name):\n`,
  );
  if (found.length === 0) process.stdout.write('  none\n');
  for (const r of found) {
    const by = Number.isFinite(r.worse) ? `${round(r.worse * 100, 0)}% worse` : 'from 0';
    process.stdout.write(`  ${r.name}: ${r.before} -> ${r.after} ${r.unit} (${by})\n`);
  }
}
