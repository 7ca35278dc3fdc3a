import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { figure, type Figure } from '../lib/figures';
import { percentile, round } from '../lib/stats';
import type { ScaleForm } from './scale-calls';
import { idle, type Sample, sampleMs as ms, send, sleep, timedRequest } from './scale-http';
import { describeRow, markFailures, type TableRow, tableRow } from './scale-table';
import { firstPageReads, quietFirstPageReads } from './first-page-reads';

export interface ErasureContext {
  baseUrl: string;
  figures: Figure[];
  progress: (text: string) => void;
}

// Right to be forgotten over each form's account, for an address no response
// holds: the whole account is searched, nothing is deleted (so a kept
// database stays as seeded). The call answers with a job id at once; the job
// runs in the background. The region's reads meanwhile: the small form's
// first page, called one after another until the big account's job has
// ended (its state read at /rtbf/{account}/jobs/{id}), and 3 s more.
export async function erasure(
  c: ErasureContext,
  sql: Client,
  forms: ScaleForm[],
  samples: number,
  small: string,
  big: string,
): Promise<TableRow[]> {
  const [smallForm, bigForm] = forms;
  const rtbf = (form: ScaleForm) =>
    timedRequest(c.baseUrl, form.token, 'DELETE', `/rtbf/${form.accountId}/responses`, [
      `nobody.${randomBytes(6).toString('hex')}@example.invalid`,
    ]);
  const rounds = Math.max(1, Math.min(3, samples));
  c.progress(`  right to be forgotten over each account, ${rounds} times`);
  const timed: Record<'small' | 'big', Sample[]> = { small: [], big: [] };
  for (let i = 0; i < rounds; i++) {
    await idle(sql);
    timed.small.push(await rtbf(smallForm));
    await idle(sql);
    timed.big.push(await rtbf(bigForm));
  }
  await idle(sql);
  const name = 'DELETE /rtbf/{account}/responses';
  const row = tableRow(name, timed, { small: [], big: [] });
  c.progress(`  ${describeRow(row, small, big)}`);
  const failures = (s: Sample[]) => s.filter((x) => x.status >= 300);
  const bigFigure = figure(`data-scale ${name}: ${big}`, 'ms', ms(timed.big), undefined, {
    kind: 'value-below',
    bound: 1000,
  });
  markFailures(bigFigure, failures(timed.big));
  c.figures.push(
    figure(`data-scale ${name}: ${small}`, 'ms', ms(timed.small), undefined, null),
    bigFigure,
    figure(`data-scale ${name}: growth ${big}/${small}`, 'x', [row.growth], undefined, null),
  );

  await idle(sql);
  const quiet = await quietFirstPageReads(c.baseUrl, smallForm);
  let running = true;
  const erasing = erasureJob(c, bigForm).finally(() => sleep(3000).then(() => (running = false)));
  const during = await firstPageReads(c.baseUrl, smallForm, () => running);
  const erased = await erasing;
  c.progress(
    `  reads of the ${small} form's first page during the erasure job on the ${big} account (answered ${erased.status} in ${round(erased.answerMs)} ms, job ${erased.state} after ${round(erased.jobMs)} ms): ${during.length} reads, p50 ${round(percentile(ms(during), 50))} ms, p99 ${round(percentile(ms(during), 99))} ms (quiet, ${quiet.length} reads: p99 ${round(percentile(ms(quiet), 99))} ms)`,
  );
  c.figures.push(
    figure(`data-scale RTBF job on ${big}: until done`, 'ms', [erased.jobMs], undefined, {
      kind: 'value-below',
      bound: 15 * 60_000,
    }),
  );
  // Their p99 against the same reads' p99 with nothing running, just before.
  const p99 = (s: Sample[]) => percentile(ms(s), 99);
  const readsFigure = figure(
    `data-scale: reads during RTBF on ${big}: p99`,
    'ms',
    [p99(during)],
    [p99(quiet)],
    { kind: 'ratio-at-most', bound: 2 },
  );
  markFailures(readsFigure, failures(during));
  c.figures.push(readsFigure);
  return [row];
}

// One erasure on the form's account, followed until its job ends (or 15 minutes).
async function erasureJob(
  c: ErasureContext,
  form: ScaleForm,
): Promise<{ status: number; answerMs: number; state: string; jobMs: number }> {
  const started = performance.now();
  const address = `nobody.${randomBytes(6).toString('hex')}@example.invalid`;
  const called = await send(c.baseUrl, form.token, 'DELETE', `/rtbf/${form.accountId}/responses`, [address]);
  const answerMs = performance.now() - started;
  const ids = called.ok ? ((await called.json()) as string[]) : [];
  let state = ids.length === 1 ? 'queued' : 'not started';
  while ((state === 'queued' || state === 'running') && performance.now() - started < 15 * 60_000) {
    await sleep(250);
    const read = await send(c.baseUrl, form.token, 'GET', `/rtbf/${form.accountId}/jobs/${ids[0]}`);
    state = read.ok ? ((await read.json()) as { state: string }).state : `unreadable (${read.status})`;
  }
  return { status: called.status, answerMs, state, jobMs: performance.now() - started };
}
