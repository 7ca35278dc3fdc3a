import { randomBytes } from 'node:crypto';
import { createAccount, mintPersonalAccessToken } from '@formline/admin';
import { createGlobalDatabase } from '@formline/db';
import type { RegionStack } from '@formline/stack';
import { Client } from 'pg';
import { apps } from '../lib/bench-run';
import { type BenchInfra, cpuMs, infraCpuMs } from '../lib/bench-stack';
import { figure, type Figure } from '../lib/figures';
import {
  calls,
  defaultFloor,
  type FormParameters,
  formParameters,
  type ScaleForm,
  welcomeCount,
} from './scale-calls';
import { formDeletion } from './scale-deletion';
import { erasure } from './scale-erasure';
import { exportFigures } from './scale-export';
import { scaleFormDefinition, templateSubmission } from './scale-form';
import { type SeedTarget, seedResponses, searchTextOf, shapeOf, type TemplateRows } from './scale-seed';
import { api, idle, PeakMemory, type Sample, timedQuery, timedRequest } from './scale-http';
import { callFigures, describeRow, printScaleTable, type TableRow, tableRow } from './scale-table';

// The data-scale stage: a small and a big form (BENCH_SCALE_SIZES, 10,000 and
// 1,000,000 responses by default) in region us, the same API calls on both
// (every listing variant, the insights summary and distribution of answers,
// the respondent page's submission count, the right-to-be-forgotten call over
// each form's account),
// each BENCH_SCALE_SAMPLES times (15), small and big alternating, then the
// export of each form (scale-export.ts). The calls are in scale-calls.ts, the
// erasure in scale-erasure.ts, the table in scale-table.ts; last, the big
// form is deleted (scale-deletion.ts). Each call is set against its SQL
// floor, measured in the same run: the same page read straight from
// PostgreSQL with the same filters, without counting anything (a call that is
// no page is set against the default first page's floor).

export interface ScaleSettings {
  sizes: number[];
  samples: number;
  /** The databases are kept for the next run: the big form is not deleted at the end. */
  keepData: boolean;
}

interface ScaleContext {
  infra: BenchInfra;
  stack: RegionStack;
  figures: Figure[];
  progress: (text: string) => void;
}

const sizes = ['small', 'big'] as const;
// A call that failed this many times in a row (503: no answer before the
// deadline between gateway and service) is not asked again: its answer is known.
const failuresToGiveUp = 3;

export async function dataScale(c: ScaleContext, settings: ScaleSettings): Promise<void> {
  const [smallSize, bigSize] = settings.sizes;
  if (settings.sizes.length !== 2 || !(smallSize > 0 && bigSize > smallSize) || !Number.isInteger(bigSize)) {
    throw new Error(
      `BENCH_SCALE_SIZES: two whole numbers, the small form's then the big one's, not ${settings.sizes.join(',')}`,
    );
  }
  const label = (n: number) =>
    n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n % 1000 === 0 ? `${n / 1000}k` : `${n}`;
  const [small, big] = [label(smallSize), label(bigSize)];
  c.progress(`data scale: two forms, ${small} and ${big} responses, ${settings.samples} samples a call`);
  const globalDb = createGlobalDatabase(`${c.infra.databaseHostUrl}/formline_global`);
  const sql = new Client({ connectionString: `${c.infra.databaseHostUrl}/formline_responses_us` });
  await sql.connect();
  const memory = new PeakMemory(c.stack);
  try {
    const forms: ScaleForm[] = [];
    for (const size of settings.sizes) forms.push(await scaleForm(c, globalDb, sql, size));
    const [smallForm, bigForm] = forms;
    const parameters = new Map<ScaleForm, FormParameters>();
    for (const form of forms) parameters.set(form, await formParameters(sql, form));
    const welcome = await Promise.all(forms.map((form) => welcomeCount(c.stack.baseUrl, form)));
    c.progress(
      `  respondent page submission count: ${forms.map((f, i) => `${label(f.size)} ${welcome[i] ?? 'not shown'}`).join(', ')}`,
    );

    memory.start();
    const rows: TableRow[] = [];
    for (const call of calls) {
      const timed: Record<'small' | 'big', Sample[]> = { small: [], big: [] };
      const floors: Record<'small' | 'big', number[]> = { small: [], big: [] };
      const request = (form: ScaleForm) =>
        timedRequest(
          c.stack.baseUrl,
          call.anonymous ? undefined : form.token,
          'GET',
          call.path(form, parameters.get(form)!),
        );
      const floorOf = (form: ScaleForm) => (call.floor ?? defaultFloor)(form, parameters.get(form)!);
      const sized = { small: smallForm, big: bigForm };
      await idle(sql);
      // One each first: connections, plans and caches warm.
      for (const size of sizes) if ((await request(sized[size])).status >= 500) await idle(sql);
      const failedInRow = { small: 0, big: 0 };
      for (let i = 0; i < settings.samples; i++) {
        for (const size of sizes) {
          if (failedInRow[size] >= failuresToGiveUp) continue;
          const sample = await request(sized[size]);
          timed[size].push(sample);
          failedInRow[size] = sample.status >= 500 ? failedInRow[size] + 1 : 0;
          if (sample.status >= 500) await idle(sql);
        }
      }
      await timedQuery(sql, floorOf(smallForm));
      await timedQuery(sql, floorOf(bigForm));
      for (let i = 0; i < settings.samples; i++) {
        floors.small.push(await timedQuery(sql, floorOf(smallForm)));
        floors.big.push(await timedQuery(sql, floorOf(bigForm)));
      }
      const row = tableRow(call.name, timed, floors);
      rows.push(row);
      c.progress(`  ${describeRow(row, small, big)}`);
      c.figures.push(...callFigures(call.name, call.under50ms, small, big, timed, floors));
    }

    rows.push(
      ...(await erasure(
        { baseUrl: c.stack.baseUrl, figures: c.figures, progress: c.progress },
        sql,
        forms,
        settings.samples,
        small,
        big,
      )),
    );
    memory.stop();
    for (const app of apps) {
      c.figures.push(
        figure(`data-scale: peak memory while calling: ${app}`, 'MB', [memory.peak[app]], undefined, null),
      );
    }
    c.progress(`  peak memory while calling (MB): ${JSON.stringify(memory.rounded())}`);
    const exportForms = forms.map((form) => ({ ...form, label: label(form.size) }));
    await exportFigures(
      {
        baseUrl: c.stack.baseUrl,
        databaseUrl: c.infra.databaseHostUrl,
        figures: c.figures,
        progress: c.progress,
        cpuMs: () => ({
          ...Object.fromEntries(apps.map((app) => [app, cpuMs(c.stack.app(app).pid)])),
          postgres: infraCpuMs(c.infra).postgres,
        }),
      },
      exportForms,
      new PeakMemory(c.stack),
      apps,
    );
    const scaleCalls = { baseUrl: c.stack.baseUrl, figures: c.figures, progress: c.progress };
    if (settings.keepData) {
      c.progress(
        `  the ${big} form is kept for the next run: its deletion is timed by a run without BENCH_KEEP_DATA`,
      );
    } else {
      await formDeletion(scaleCalls, sql, forms, big);
    }
    printScaleTable(rows, small, big);
  } finally {
    memory.stop();
    await sql.end();
    await globalDb.$disconnect();
  }
}

// The account and form of one size, seeded unless a kept database holds them already.
async function scaleForm(
  c: ScaleContext,
  globalDb: ReturnType<typeof createGlobalDatabase>,
  sql: Client,
  size: number,
): Promise<ScaleForm> {
  const accountId = `bench-scale-${size}`;
  if (!(await globalDb.account.findUnique({ where: { id: accountId } }))) {
    await createAccount(globalDb, {
      id: accountId,
      alias: accountId,
      email: `${accountId}@example.com`,
      region: 'us',
    });
  }
  const token = await mintPersonalAccessToken(globalDb, { accountId, name: 'bench data scale' });
  const existing = await globalDb.form.findFirst({ where: { accountId }, select: { id: true } });
  const formId =
    existing?.id ??
    (
      (
        await api(
          c.stack.baseUrl,
          token,
          'POST',
          '/forms',
          scaleFormDefinition(`Data scale: ${size} responses`),
        )
      ).json as { id: string }
    ).id;
  const form = { size, accountId, formId, token };
  const { rows } = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM responses WHERE form_id = $1',
    [formId],
  );
  if (rows[0].n === size) {
    c.progress(`  form ${formId} (${accountId}) already holds ${size} responses: kept`);
    return form;
  }
  if (rows[0].n > 0) await sql.query('DELETE FROM responses WHERE form_id = $1', [formId]);
  c.progress(`  seeding ${size} responses into form ${formId} (${accountId})...`);
  const templates = await templateRows(c, sql, form);
  const definition = (await api(c.stack.baseUrl, token, 'GET', `/forms/${formId}`)).json as {
    fields: Array<{
      ref: string;
      properties?: { choices?: Array<{ id: string; ref: string; label: string }> };
    }>;
  };
  const choices = (ref: string) => definition.fields.find((f) => f.ref === ref)?.properties?.choices ?? [];
  const target: SeedTarget = { formId, accountId, count: size, planChoices: choices('plan') };
  await seedResponses(sql, templates, target, c.progress);
  await checkSeeded(c, sql, form, templates);
  return form;
}

// A completed and a partial response submitted through the API, read back as
// stored, then deleted through the API: what the seeded rows are made from.
async function templateRows(c: ScaleContext, sql: Client, form: ScaleForm): Promise<TemplateRows> {
  const body = templateSubmission();
  const completed = (await api(c.stack.baseUrl, undefined, 'POST', `/forms/${form.formId}/submissions`, body))
    .json as { token: string };
  const partial = (
    await api(c.stack.baseUrl, undefined, 'POST', `/forms/${form.formId}/submissions/partial`, {
      ...body,
      progress_key: randomBytes(16).toString('hex'),
    })
  ).json as { token: string };
  const read = async (id: string) => {
    const { rows } = await sql.query<{ payload: string; search_text: string }>(
      'SELECT payload::text AS payload, search_text FROM responses WHERE id = $1',
      [id],
    );
    const row = rows[0];
    // The seed writes search_text as it understands the service to: refuse to
    // seed if the service derives it otherwise now.
    if (searchTextOf(row.payload) !== row.search_text) {
      throw new Error(
        `data scale: the service's search text is no longer what the seed writes:\n${row.search_text}`,
      );
    }
    return { payload: row.payload, searchText: row.search_text };
  };
  const templates = { completed: await read(completed.token), partial: await read(partial.token) };
  await api(
    c.stack.baseUrl,
    form.token,
    'DELETE',
    `/forms/${form.formId}/responses?included_response_ids=${completed.token},${partial.token}`,
  );
  c.progress(
    `  template rows: completed ${templates.completed.payload.length} bytes, partial ${templates.partial.payload.length} bytes of payload`,
  );
  return templates;
}

// Seeded rows have the templates' shape, and the API lists them.
async function checkSeeded(
  c: ScaleContext,
  sql: Client,
  form: ScaleForm,
  templates: TemplateRows,
): Promise<void> {
  const sample = async (type: string) =>
    (
      await sql.query<{ payload: string; search_text: string }>(
        `SELECT payload::text AS payload, search_text FROM responses
          WHERE form_id = $1 AND response_type = $2 AND search_text LIKE '%+1555%'
            AND json_array_length(payload->'answers') = $3 LIMIT 1`,
        [
          form.formId,
          type,
          (JSON.parse(templates.completed.payload) as { answers: unknown[] }).answers.length,
        ],
      )
    ).rows[0];
  const completed = await sample('completed');
  const same = (a: string, b: string) =>
    JSON.stringify(shapeOf(JSON.parse(a))) === JSON.stringify(shapeOf(JSON.parse(b)));
  if (
    !completed ||
    !same(completed.payload, templates.completed.payload) ||
    searchTextOf(completed.payload) !== completed.search_text
  ) {
    throw new Error(`data scale: a seeded row differs from the service's: ${completed?.payload}`);
  }
  const { rows } = await sql.query<{ bytes: number; table: string; partial: number }>(
    `SELECT avg(octet_length(payload::text))::int AS bytes,
            count(*) FILTER (WHERE response_type = 'partial')::int AS partial,
            pg_size_pretty(pg_total_relation_size('responses')) AS table
       FROM responses WHERE form_id = $1`,
    [form.formId],
  );
  const listed = await api(
    c.stack.baseUrl,
    form.token,
    'GET',
    `/forms/${form.formId}/responses?page_size=1`,
  ).then(
    (page) => (page.json as { total_items: number }).total_items,
    (error: Error) => `none (${error.message})`,
  );
  c.progress(
    `  seeded: ${rows[0].bytes} bytes of payload a row on average, ${rows[0].partial} partial; the API lists ${listed} completed; the responses table now takes ${rows[0].table}`,
  );
}
