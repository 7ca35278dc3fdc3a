import { figure, type Figure } from '../lib/figures';
import { percentile, round } from '../lib/stats';
import { type Sample, sampleMs as ms } from './scale-http';

// The data-scale stage's figures and its printed table: p50 and p99 of each
// size, growth big/small, and the big form's p50 against its SQL floor.

export function callFigures(
  name: string,
  under50ms: boolean,
  small: string,
  big: string,
  timed: Record<'small' | 'big', Sample[]>,
  floors: Record<'small' | 'big', number[]>,
): Figure[] {
  const failed = [...timed.small, ...timed.big].filter((s) => s.status >= 300);
  const smallFigure = figure(
    `data-scale ${name}: ${small}`,
    'ms',
    ms(timed.small),
    floors.small,
    null,
    false,
  );
  const bigFigure = figure(
    `data-scale ${name}: ${big}`,
    'ms',
    ms(timed.big),
    floors.big,
    under50ms ? { kind: 'value-below', bound: 50 } : null,
    false,
  );
  const growth = figure(
    `data-scale ${name}: growth ${big}/${small}`,
    'x',
    [percentile(ms(timed.big), 50) / percentile(ms(timed.small), 50)],
    undefined,
    { kind: 'value-at-most', bound: 2 },
  );
  markFailures(
    smallFigure,
    timed.small.filter((s) => s.status >= 300),
  );
  markFailures(
    bigFigure,
    timed.big.filter((s) => s.status >= 300),
  );
  markFailures(growth, failed);
  return [smallFigure, bigFigure, growth];
}

// A figure whose calls failed meets no target, and says so.
export function markFailures(f: Figure, failed: Sample[]): void {
  if (failed.length === 0) return;
  const statuses = [...new Set(failed.map((s) => s.status))].join(', ');
  f.note = [f.note, `${failed.length} call(s) failed (${statuses})`].filter(Boolean).join('; ');
  if (f.met !== null) f.met = false;
}

export interface TableRow {
  name: string;
  p50: Record<'small' | 'big', number>;
  p99: Record<'small' | 'big', number>;
  growth: number;
  floor: Record<'small' | 'big', number>;
  failed: Record<'small' | 'big', string>;
  /** Calls the gateway shed and that were asked again. */
  shed: number;
}

export function tableRow(
  name: string,
  timed: Record<'small' | 'big', Sample[]>,
  floors: Record<'small' | 'big', number[]>,
): TableRow {
  const p = (s: Sample[], q: number) => percentile(ms(s), q);
  const failed = (s: Sample[]) => {
    const bad = s.filter((x) => x.status >= 300);
    return bad.length === 0 ? '' : `${bad.length}x${[...new Set(bad.map((x) => x.status))].join('/')}`;
  };
  return {
    name,
    p50: { small: p(timed.small, 50), big: p(timed.big, 50) },
    p99: { small: p(timed.small, 99), big: p(timed.big, 99) },
    growth: p(timed.big, 50) / p(timed.small, 50),
    floor: { small: percentile(floors.small, 50), big: percentile(floors.big, 50) },
    failed: { small: failed(timed.small), big: failed(timed.big) },
    shed: [...timed.small, ...timed.big].reduce((sum, x) => sum + x.shed, 0),
  };
}

export function describeRow(row: TableRow, small: string, big: string): string {
  const floor = (v: number) => (Number.isNaN(v) ? '' : ` (floor ${round(v)})`);
  return `${row.name}: ${small} p50 ${round(row.p50.small)} ms${floor(row.floor.small)} | ${big} p50 ${round(row.p50.big)} ms p99 ${round(row.p99.big)} ms${floor(row.floor.big)}${row.failed.big ? ` failed ${row.failed.big}` : ''} | growth ${round(row.growth, 1)}x${row.shed ? ` (shed ${row.shed} times, asked again)` : ''}`;
}

export function printScaleTable(rows: TableRow[], small: string, big: string): void {
  const cell = (v: number, fail = '') => (Number.isNaN(v) ? '-' : `${round(v)}${fail ? ` (${fail})` : ''}`);
  const table = [
    ['call', `p50 ${small}`, `p99 ${small}`, `p50 ${big}`, `p99 ${big}`, 'growth', `floor ${big}`, `x floor`],
    ...rows.map((r) => [
      r.name,
      cell(r.p50.small, r.failed.small),
      cell(r.p99.small),
      cell(r.p50.big, r.failed.big),
      cell(r.p99.big),
      `${round(r.growth, 1)}x`,
      cell(r.floor.big),
      Number.isNaN(r.floor.big) ? '-' : `${round(r.p50.big / r.floor.big, 1)}x`,
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((v, i) => v.padEnd(widths[i])).join('  ');
  process.stdout.write(
    `\ndata scale (ms)\n${line(table[0])}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`,
  );
  for (const row of table.slice(1)) process.stdout.write(`${line(row)}\n`);
}
