import { spawn } from 'node:child_process';
import type { AppName } from '@formline/stack';
import { figure, type Figure } from '../lib/figures';
import { round } from '../lib/stats';

// Export in the data-scale stage: each form's completed responses streamed
// whole through `GET /forms/{id}/responses/export`, as JSON lines and as CSV,
// timed from the request to the last byte, in responses a second; against
// the floor of the same rows copied out of PostgreSQL as they are stored
// (`COPY (SELECT payload ...) TO STDOUT`, through psql), in the same run;
// every app's peak resident memory while the exports run; and the CPU time
// each app and PostgreSQL spent on each export, per 1,000 responses: on a
// machine shared with other work the rate follows the machine's load, the
// CPU a response costs hardly does.

export interface ExportForm {
  size: number;
  label: string;
  accountId: string;
  formId: string;
  token: string;
}

export interface MemoryWatch {
  start(): void;
  stop(): void;
  readonly peak: Record<AppName, number>;
}

interface ExportContext {
  baseUrl: string;
  databaseUrl: string;
  figures: Figure[];
  progress: (text: string) => void;
  /** CPU time used so far (ms), by app and PostgreSQL. */
  cpuMs: () => Record<string, number>;
}

const formats = ['jsonl', 'csv'] as const;
export const exportTarget = { responsesPerSecond: 20_000, appMb: 250 };

export async function exportFigures(
  c: ExportContext,
  forms: ExportForm[],
  memory: MemoryWatch,
  apps: readonly AppName[],
): Promise<void> {
  c.progress('  export: every completed response of each form, JSON lines then CSV');
  // Warm: connections, plans and the form's definition in the gateway's cache.
  for (const format of formats) await timedExport(c.baseUrl, forms[0], format);
  memory.start();
  const jsonlRates: Record<string, number> = {};
  try {
    for (const form of forms) {
      const floor = await copyFloor(c.databaseUrl, form);
      const floorRate = floor.rows / (floor.ms / 1000);
      for (const format of formats) {
        const cpuBefore = c.cpuMs();
        const run = await timedExport(c.baseUrl, form, format);
        const cpuAfter = c.cpuMs();
        const rate = run.responses / (run.ms / 1000);
        const perThousand = Object.fromEntries(
          Object.keys(cpuAfter).map((who) => [
            who,
            round(((cpuAfter[who] - cpuBefore[who]) / Math.max(1, run.responses)) * 1000),
          ]),
        );
        if (format === 'jsonl') jsonlRates[form.label] = rate;
        const complete = run.status === 200 && run.responses === floor.rows;
        c.progress(
          `    ${format} ${form.label}: ${run.responses} responses, ${round(run.bytes / 1e6)} MB in ${round(run.ms)} ms: ${round(rate)} responses/s (SQL floor ${round(floorRate)} responses/s, ${floor.rows} rows in ${round(floor.ms)} ms)${complete ? '' : ` INCOMPLETE: status ${run.status}, ${floor.rows} expected`}; CPU ms per 1000 responses: ${JSON.stringify(perThousand)}`,
        );
        for (const who of ['gateway', 'responses', 'postgres']) {
          c.figures.push(
            figure(
              `data-scale export ${format} CPU per 1000 responses: ${who}: ${form.label}`,
              'ms',
              [perThousand[who]],
              undefined,
              null,
            ),
          );
        }
        const big = form === forms[forms.length - 1];
        const f = figure(
          `data-scale export ${format}: ${form.label}`,
          'responses/s',
          [rate],
          [floorRate],
          big && format === 'jsonl'
            ? { kind: 'value-at-least', bound: exportTarget.responsesPerSecond }
            : null,
        );
        if (!complete) {
          f.note = `status ${run.status}, ${run.responses} of ${floor.rows} responses`;
          if (f.met !== null) f.met = false;
        }
        c.figures.push(f);
      }
    }
  } finally {
    memory.stop();
  }
  const memoryFigures = apps.map((app) =>
    figure(`data-scale: peak memory while exporting: ${app}`, 'MB', [memory.peak[app]], undefined, {
      kind: 'value-below',
      bound: exportTarget.appMb,
    }),
  );
  c.figures.push(...memoryFigures);
  const peaks = Object.fromEntries(apps.map((app) => [app, round(memory.peak[app])]));
  c.progress(`  peak memory while exporting (MB): ${JSON.stringify(peaks)}`);
  const bigLabel = forms[forms.length - 1].label;
  const rate = jsonlRates[bigLabel] ?? 0;
  const fast = rate >= exportTarget.responsesPerSecond;
  const lean = memoryFigures.every((f) => f.met);
  c.progress(
    `  target: export of ${bigLabel} responses >= ${exportTarget.responsesPerSecond} responses/s as JSON lines, every app < ${exportTarget.appMb} MB: ${fast && lean ? 'met' : 'NOT met'} (${round(rate)} responses/s, largest app ${round(Math.max(...apps.map((app) => memory.peak[app])))} MB)`,
  );
}

interface ExportRun {
  ms: number;
  status: number;
  responses: number;
  bytes: number;
}

// The export read to its end as a client would, counting its lines (a CSV
// has its header line besides; the seeded answers hold no line breaks).
async function timedExport(baseUrl: string, form: ExportForm, format: string): Promise<ExportRun> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/forms/${form.formId}/responses/export?format=${format}`, {
    headers: { authorization: `bearer ${form.token}` },
  });
  let lines = 0;
  let bytes = 0;
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      bytes += buffer.length;
      for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) lines++;
    }
  }
  const ms = performance.now() - started;
  return { ms, status: response.status, responses: format === 'csv' ? Math.max(0, lines - 1) : lines, bytes };
}

// The same rows as the export (the form's completed responses, oldest
// first), copied out of PostgreSQL as stored: the least the database does.
function copyFloor(databaseUrl: string, form: ExportForm): Promise<{ ms: number; rows: number }> {
  const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const copy = `COPY (SELECT payload FROM responses WHERE form_id = ${literal(form.formId)} AND account_id = ${literal(form.accountId)} AND response_type = 'completed' ORDER BY submitted_at, id) TO STDOUT`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const psql = spawn('psql', [`${databaseUrl}/formline_responses_us`, '-X', '-q', '-c', copy], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let rows = 0;
    psql.stdout.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) rows++;
    });
    psql.on('error', reject);
    psql.on('close', (code) =>
      code === 0
        ? resolve({ ms: performance.now() - started, rows })
        : reject(new Error(`psql COPY exited ${code}`)),
    );
  });
}
