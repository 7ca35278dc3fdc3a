import type { Client } from 'pg';
import { figure, type Figure } from '../lib/figures';
import { percentile, round } from '../lib/stats';
import type { ScaleForm } from './scale-calls';
import { idle, type Sample, sampleMs as ms, sleep, timedRequest } from './scale-http';
import { markFailures } from './scale-table';
import { firstPageReads, quietFirstPageReads } from './first-page-reads';

export interface DeletionContext {
  baseUrl: string;
  figures: Figure[];
  progress: (text: string) => void;
}

/** How long the stage follows a purge before it calls it unfinished. */
const followMs = 15 * 60_000;
/** "Within minutes": the big form's rows gone from the responses database by then. */
const rowsGoneTarget = 10 * 60_000;

// Deleting the big form, the last call of the stage (it takes the form's
// data with it: a kept database seeds it again next run). Timed: the API's
// answer; the time until none of the form's rows is left in the responses
// database (responses, tallies, uploads, outbox events); the time until its
// purge has ended (the purge's own row gone, after the pass that finds
// nothing at least FORM_PURGE_SETTLE_MS after the deletion). Meanwhile the
// small form's first page is read again and again: the region's reads keep
// their p99 while a purge runs.
export async function formDeletion(
  c: DeletionContext,
  sql: Client,
  forms: ScaleForm[],
  big: string,
): Promise<void> {
  const [smallForm, bigForm] = forms;
  await idle(sql);
  const quiet = await quietFirstPageReads(c.baseUrl, smallForm);
  c.progress(`  deleting the ${big} form (${bigForm.formId}), followed until its purge ends`);
  const started = performance.now();
  const answer = await timedRequest(c.baseUrl, bigForm.token, 'DELETE', `/forms/${bigForm.formId}`);
  let rowsGoneMs = Number.NaN;
  let purgedMs = Number.NaN;
  let following = true;
  const followed = (async () => {
    while (performance.now() - started < followMs) {
      const left = await leftOf(sql, bigForm.formId);
      const elapsed = performance.now() - started;
      if (Number.isNaN(rowsGoneMs) && !left.rows) rowsGoneMs = elapsed;
      if (!left.rows && !left.purge) {
        purgedMs = elapsed;
        break;
      }
      await sleep(1000);
    }
    following = false;
  })();
  // The reads stop when the rows are gone: the settle pass after them deletes nothing.
  const during = await firstPageReads(c.baseUrl, smallForm, () => following && Number.isNaN(rowsGoneMs));
  await followed;
  const p99 = (s: Sample[]) => percentile(ms(s), 99);
  c.progress(
    `  form deletion at ${big}: answered ${answer.status} in ${round(answer.ms)} ms; rows gone after ${round(rowsGoneMs / 1000)} s, purge ended after ${round(purgedMs / 1000)} s; ${during.length} reads meanwhile, p50 ${round(percentile(ms(during), 50))} ms, p99 ${round(p99(during))} ms (quiet, ${quiet.length} reads just before: p99 ${round(p99(quiet))} ms)`,
  );
  const answered = figure(`data-scale DELETE /forms/{id} at ${big}: answer`, 'ms', [answer.ms], undefined, {
    kind: 'value-below',
    bound: 1000,
  });
  markFailures(answered, answer.status === 204 ? [] : [answer]);
  const reads = figure(
    `data-scale: reads during the ${big} form's purge: p99`,
    'ms',
    [p99(during)],
    [p99(quiet)],
    { kind: 'ratio-at-most', bound: 2 },
  );
  markFailures(
    reads,
    during.filter((s) => s.status >= 300),
  );
  c.figures.push(
    answered,
    figure(`data-scale DELETE /forms/{id} at ${big}: rows gone`, 'ms', [rowsGoneMs], undefined, {
      kind: 'value-below',
      bound: rowsGoneTarget,
    }),
    figure(`data-scale DELETE /forms/{id} at ${big}: purge ended`, 'ms', [purgedMs], undefined, null),
    reads,
  );
}

// Whether any row of the form is left in the responses database, and whether its purge is still recorded.
async function leftOf(sql: Client, formId: string): Promise<{ rows: boolean; purge: boolean }> {
  const { rows } = await sql.query<{ rows: boolean; purge: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM responses WHERE form_id = $1)
         OR EXISTS (SELECT 1 FROM response_tallies WHERE form_id = $1)
         OR EXISTS (SELECT 1 FROM uploads WHERE form_id = $1)
         OR EXISTS (SELECT 1 FROM outbox_events WHERE payload -> 'form_response' ->> 'form_id' = $1) AS rows,
            EXISTS (SELECT 1 FROM form_purges WHERE form_id = $1) AS purge`,
    [formId],
  );
  return rows[0];
}
