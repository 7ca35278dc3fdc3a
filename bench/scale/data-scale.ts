import { randomBytes } from 'node:crypto';
import { createAccount, mintPersonalAccessToken } from '@formline/admin';
import { createGlobalDatabase } from '@formline/db';
import { inputLimits } from '@formline/input';
import type { AppName, RegionStack } from '@formline/stack';
import { Client } from 'pg';
import { type BenchInfra, cpuMs, infraCpuMs, rssMb } from '../lib/bench-stack';
import { figure, type Figure } from '../lib/figures';
import { percentile, round } from '../lib/stats';
import { exportFigures } from './scale-export';
import { scaleFormDefinition, templateSubmission } from './scale-form';
import {
  type SeedTarget,
  seedResponses,
  searchTextOf,
  seedShape,
  shapeOf,
  type TemplateRows,
} from './scale-seed';

// The data-scale stage: a small and a big form (BENCH_SCALE_SIZES, 10,000 and
// 1,000,000 responses by default) in region us, the same API calls on both
// (every listing variant, the insights summary, the respondent page's
// submission count, the right-to-be-forgotten call over each form's account),
// each BENCH_SCALE_SAMPLES times (15), small and big alternating, then the
// export of each form (scale-export.ts). Each call is set against its SQL
// floor, measured in the same run: the same page read straight from
// PostgreSQL with the same filters, without counting anything (a call that is
// no page is set against the default first page's floor).

export interface ScaleSettings {
  sizes: number[];
  samples: number;
}

interface ScaleContext {
  infra: BenchInfra;
  stack: RegionStack;
  figures: Figure[];
  progress: (text: string) => void;
}

interface ScaleForm {
  size: number;
  accountId: string;
  formId: string;
  token: string;
}

// What a call needs of its form: the API path, and the SQL of its floor.
interface CallSpec {
  name: string;
  /** A page of 25 responses: held to the 50 ms target at the big size. */
  page25: boolean;
  path: (f: ScaleForm, p: FormParameters) => string;
  anonymous?: boolean;
  floor?: (f: ScaleForm, p: FormParameters) => { text: string; values: unknown[] };
}

interface FormParameters {
  day: { since: string; until: string };
  firstPageLast: { id: string; submittedAt: Date };
  middle: { id: string; submittedAt: Date };
  included: string[];
  excluded: string[];
}

interface Sample {
  ms: number;
  status: number;
  /** Times the gateway shed the call before taking it (not timed). */
  shed: number;
}

const apps: AppName[] = ['gateway', 'forms', 'responses', 'webhooks', 'dispatcher'];
const sizes = ['small', 'big'] as const;
// A call that failed this many times in a row (503: no answer before the
// deadline between gateway and service) is not asked again: its answer is known.
const failuresToGiveUp = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// As many 32-character tokens as the gateway takes in one query value (comma-separated).
const idsAtLimit = Math.floor((inputLimits.queryValue + 1) / 33);

const columns = 'id, response_type, submitted_at, landed_at, payload';
const completedOf = `FROM responses WHERE form_id = $1 AND account_id = $2 AND response_type = 'completed'`;
const page = (where: string, order: string, limit = 25) =>
  `SELECT ${columns} ${completedOf} ${where} ORDER BY ${order} LIMIT ${limit}`;
const newestFirst = 'submitted_at DESC, id DESC';
const base = (f: ScaleForm) => [f.formId, f.accountId];
const defaultFloor = (f: ScaleForm) => ({ text: page('', newestFirst), values: base(f) });

const calls: CallSpec[] = [
  {
    name: 'GET responses (page_size=25)',
    page25: true,
    path: (f) => `/forms/${f.formId}/responses?page_size=25`,
    floor: defaultFloor,
  },
  {
    name: 'page_size=1000',
    page25: false,
    path: (f) => `/forms/${f.formId}/responses?page_size=1000`,
    floor: (f) => ({ text: page('', newestFirst, 1000), values: base(f) }),
  },
  {
    name: 'sort=submitted_at,asc',
    page25: true,
    path: (f) => `/forms/${f.formId}/responses?sort=submitted_at,asc`,
    floor: (f) => ({ text: page('', 'submitted_at ASC, id ASC'), values: base(f) }),
  },
  {
    name: 'sort=landed_at,desc',
    page25: true,
    path: (f) => `/forms/${f.formId}/responses?sort=landed_at,desc`,
    floor: (f) => ({ text: page('', 'landed_at DESC, id DESC'), values: base(f) }),
  },
  {
    name: `query=${seedShape.commonWord} (~${seedShape.commonShare * 100}%)`,
    page25: true,
    path: (f) => `/forms/${f.formId}/responses?query=${seedShape.commonWord}`,
    floor: (f) => ({
      text: page('AND search_text LIKE $3', newestFirst),
      values: [...base(f), `%${seedShape.commonWord}%`],
    }),
  },
  {
    name: `query=${seedShape.rareWord} (1 in ${seedShape.rareEvery})`,
    page25: true,
    path: (f) => `/forms/${f.formId}/responses?query=${seedShape.rareWord}`,
    floor: (f) => ({
      text: page('AND search_text LIKE $3', newestFirst),
      values: [...base(f), `%${seedShape.rareWord}%`],
    }),
  },
  {
    name: `answered_fields=phone (~${seedShape.phoneShare * 100}%)`,
    page25: true,
    path: (f) => `/forms/${f.formId}/responses?answered_fields=phone`,
    floor: (f) => ({
      text: page(`AND payload::jsonb->'answers' @> $3::jsonb`, newestFirst),
      values: [...base(f), JSON.stringify([{ field: { ref: 'phone' } }])],
    }),
  },
  {
    name: 'response_type=partial',
    page25: true,
    path: (f) => `/forms/${f.formId}/responses?response_type=partial`,
    floor: (f) => ({
      text: page('', newestFirst).replace(`response_type = 'completed'`, `response_type = 'partial'`),
      values: base(f),
    }),
  },
  {
    name: 'since/until one day',
    page25: true,
    path: (f, p) => `/forms/${f.formId}/responses?since=${p.day.since}&until=${p.day.until}`,
    floor: (f, p) => ({
      text: page('AND submitted_at >= $3 AND submitted_at <= $4', newestFirst),
      values: [...base(f), p.day.since.replace('Z', ''), p.day.until.replace('Z', '.999')],
    }),
  },
  {
    name: 'before=<last of page 1> (next page)',
    page25: true,
    path: (f, p) => `/forms/${f.formId}/responses?before=${p.firstPageLast.id}`,
    floor: (f, p) => ({
      text: page('AND (submitted_at, id) < ($3, $4)', newestFirst),
      values: [...base(f), p.firstPageLast.submittedAt, p.firstPageLast.id],
    }),
  },
  {
    name: 'after=<a token mid-form>',
    page25: true,
    path: (f, p) => `/forms/${f.formId}/responses?after=${p.middle.id}`,
    floor: (f, p) => ({
      text: page('AND (submitted_at, id) > ($3, $4)', 'submitted_at ASC, id ASC'),
      values: [...base(f), p.middle.submittedAt, p.middle.id],
    }),
  },
  {
    name: `included_response_ids (${idsAtLimit}, the limit)`,
    page25: true,
    path: (f, p) => `/forms/${f.formId}/responses?included_response_ids=${p.included.join(',')}`,
    floor: (f, p) => ({ text: page('AND id = ANY($3)', newestFirst), values: [...base(f), p.included] }),
  },
  {
    name: `excluded_response_ids (${idsAtLimit} newest)`,
    page25: true,
    path: (f, p) => `/forms/${f.formId}/responses?excluded_response_ids=${p.excluded.join(',')}`,
    floor: (f, p) => ({
      text: page('AND NOT (id = ANY($3))', newestFirst),
      values: [...base(f), p.excluded],
    }),
  },
  {
    name: 'GET /insights/{id}/summary',
    page25: false,
    path: (f) => `/insights/${f.formId}/summary`,
  },
  {
    // The welcome screen shows the number of submissions: counted per view.
    name: 'respondent page /to/{id} (submission count)',
    page25: false,
    anonymous: true,
    path: (f) => `/to/${f.formId}`,
  },
];

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
    const welcome = await Promise.all(forms.map((form) => welcomeCount(c, form)));
    c.progress(
      `  respondent page submission count: ${forms.map((f, i) => `${label(f.size)} ${welcome[i] ?? 'not shown'}`).join(', ')}`,
    );

    memory.start();
    const rows: TableRow[] = [];
    let quietDefault: Sample[] = [];
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
      if (call === calls[0]) quietDefault = timed.small;
      const row = tableRow(call.name, timed, floors);
      rows.push(row);
      c.progress(`  ${describeRow(row, small, big)}`);
      c.figures.push(...callFigures(call.name, call.page25, small, big, timed, floors));
    }

    rows.push(...(await erasure(c, sql, forms, settings.samples, quietDefault, small, big)));
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

// The values the calls name: a day in the middle of the year, the first
// page's last response, one from the middle, ids at the gateway's limit.
async function formParameters(sql: Client, form: ScaleForm): Promise<FormParameters> {
  const completed = `FROM responses WHERE form_id = $1 AND response_type = 'completed'`;
  const at = async (order: string, offset: number) =>
    (
      await sql.query<{ id: string; submitted_at: Date }>(
        `SELECT id, submitted_at ${completed} ORDER BY ${order} OFFSET $2 LIMIT 1`,
        [form.formId, offset],
      )
    ).rows[0];
  // Read in SQL as the listing orders them: at the big size the API may not
  // answer in time (which is what the calls measure).
  const last = await at('submitted_at DESC, id DESC', 24);
  const middle = await at('submitted_at, id', Math.floor(form.size / 2));
  const ids = async (order: string) =>
    (
      await sql.query<{ id: string }>(`SELECT id ${completed} ORDER BY ${order} LIMIT $2`, [
        form.formId,
        idsAtLimit,
      ])
    ).rows.map((r) => r.id);
  // Timestamp columns hold UTC: `day` is read as such.
  const day = new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10);
  return {
    day: { since: `${day}T00:00:00Z`, until: `${day}T23:59:59Z` },
    firstPageLast: { id: last.id, submittedAt: last.submitted_at },
    middle: { id: middle.id, submittedAt: middle.submitted_at },
    included: await ids('md5(id)'),
    excluded: await ids('submitted_at DESC, id DESC'),
  };
}

// The number the welcome screen shows, if the page shows one.
async function welcomeCount(c: ScaleContext, form: ScaleForm): Promise<number | undefined> {
  const html = (await api(c.stack.baseUrl, undefined, 'GET', `/to/${form.formId}`)).text;
  const match = /"submissionCount":(\d+)/.exec(html);
  return match ? Number(match[1]) : undefined;
}

// Right to be forgotten over each form's account, for an address no response
// holds: the whole account is searched, nothing is deleted (so a kept
// database stays as seeded). The call answers with a job id at once; the job
// runs in the background. The region's reads meanwhile: the small form's
// first page, called one after another until the big account's job has
// ended (its state read at /rtbf/{account}/jobs/{id}), and 3 s more.
async function erasure(
  c: ScaleContext,
  sql: Client,
  forms: ScaleForm[],
  samples: number,
  quietDefault: Sample[],
  small: string,
  big: string,
): Promise<TableRow[]> {
  const [smallForm, bigForm] = forms;
  const rtbf = (form: ScaleForm) =>
    timedRequest(c.stack.baseUrl, form.token, 'DELETE', `/rtbf/${form.accountId}/responses`, [
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

  const during: Sample[] = [];
  let running = true;
  const erasing = erasureJob(c, bigForm).finally(() => sleep(3000).then(() => (running = false)));
  const path = `/forms/${smallForm.formId}/responses?page_size=25`;
  while (running) during.push(await timedRequest(c.stack.baseUrl, smallForm.token, 'GET', path));
  const erased = await erasing;
  c.progress(
    `  reads of the ${small} form's first page during the erasure job on the ${big} account (answered ${erased.status} in ${round(erased.answerMs)} ms, job ${erased.state} after ${round(erased.jobMs)} ms): ${during.length} reads, p50 ${round(percentile(ms(during), 50))} ms, p99 ${round(percentile(ms(during), 99))} ms (quiet: p99 ${round(percentile(ms(quietDefault), 99))} ms)`,
  );
  c.figures.push(
    figure(`data-scale RTBF job on ${big}: until done`, 'ms', [erased.jobMs], undefined, {
      kind: 'value-below',
      bound: 15 * 60_000,
    }),
  );
  // Their p99 against the same call's p99 measured quiet, before.
  const p99 = (s: Sample[]) => percentile(ms(s), 99);
  const readsFigure = figure(
    `data-scale: reads during RTBF on ${big}: p99`,
    'ms',
    [p99(during)],
    [p99(quietDefault)],
    { kind: 'ratio-at-most', bound: 2 },
  );
  markFailures(readsFigure, failures(during));
  c.figures.push(readsFigure);
  return [row];
}

// One erasure on the form's account, followed until its job ends (or 15 minutes).
async function erasureJob(
  c: ScaleContext,
  form: ScaleForm,
): Promise<{ status: number; answerMs: number; state: string; jobMs: number }> {
  const started = performance.now();
  const address = `nobody.${randomBytes(6).toString('hex')}@example.invalid`;
  const called = await send(c.stack.baseUrl, form.token, 'DELETE', `/rtbf/${form.accountId}/responses`, [
    address,
  ]);
  const answerMs = performance.now() - started;
  const ids = called.ok ? ((await called.json()) as string[]) : [];
  let state = ids.length === 1 ? 'queued' : 'not started';
  while ((state === 'queued' || state === 'running') && performance.now() - started < 15 * 60_000) {
    await sleep(250);
    const read = await send(c.stack.baseUrl, form.token, 'GET', `/rtbf/${form.accountId}/jobs/${ids[0]}`);
    state = read.ok ? ((await read.json()) as { state: string }).state : `unreadable (${read.status})`;
  }
  return { status: called.status, answerMs, state, jobMs: performance.now() - started };
}

function callFigures(
  name: string,
  page25: boolean,
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
    page25 ? { kind: 'value-below', bound: 50 } : null,
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
function markFailures(f: Figure, failed: Sample[]): void {
  if (failed.length === 0) return;
  const statuses = [...new Set(failed.map((s) => s.status))].join(', ');
  f.note = [f.note, `${failed.length} call(s) failed (${statuses})`].filter(Boolean).join('; ');
  if (f.met !== null) f.met = false;
}

interface TableRow {
  name: string;
  p50: Record<'small' | 'big', number>;
  p99: Record<'small' | 'big', number>;
  growth: number;
  floor: Record<'small' | 'big', number>;
  failed: Record<'small' | 'big', string>;
  /** Calls the gateway shed and that were asked again. */
  shed: number;
}

function tableRow(
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

function describeRow(row: TableRow, small: string, big: string): string {
  const floor = (v: number) => (Number.isNaN(v) ? '' : ` (floor ${round(v)})`);
  return `${row.name}: ${small} p50 ${round(row.p50.small)} ms${floor(row.floor.small)} | ${big} p50 ${round(row.p50.big)} ms p99 ${round(row.p99.big)} ms${floor(row.floor.big)}${row.failed.big ? ` failed ${row.failed.big}` : ''} | growth ${round(row.growth, 1)}x${row.shed ? ` (shed ${row.shed} times, asked again)` : ''}`;
}

function printScaleTable(rows: TableRow[], small: string, big: string): void {
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

const ms = (samples: Sample[]) => samples.map((s) => s.ms);

async function timedRequest(
  baseUrl: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<Sample> {
  for (let shed = 0; ; shed++) {
    const started = performance.now();
    const response = await send(baseUrl, token, method, path, body);
    const text = await response.text();
    const ms = performance.now() - started;
    if (!isShed(response.status, text) || shed >= maxShed) return { ms, status: response.status, shed };
    await sleep(1000);
  }
}

// The gateway refuses a request at once (503, Retry-After: 1) while its event
// loop runs late: on a machine shared with other work that is the machine's
// load, not the call's cost. Such a call is asked again after a second, not
// timed; an RPC that outlived its deadline (503 after seconds) is timed.
const maxShed = 30;
function isShed(status: number, text: string): boolean {
  return status === 503 && /short of CPU|as many requests as it can/.test(text);
}

function send(baseUrl: string, token: string | undefined, method: string, path: string, body?: unknown) {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

// A call the gateway gave up on leaves its query running in PostgreSQL, and
// that work would slow the calls after it: each kind of call, and each call
// after a failed one, starts once the responses database runs nothing else.
async function idle(sql: Client): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    if (rows[0].n === 0) return;
    await sleep(200);
  }
}

async function timedQuery(sql: Client, query: { text: string; values: unknown[] }): Promise<number> {
  const started = performance.now();
  await sql.query(query);
  return performance.now() - started;
}

async function api(baseUrl: string, token: string | undefined, method: string, path: string, body?: unknown) {
  for (let shed = 0; ; shed++) {
    const response = await send(baseUrl, token, method, path, body);
    const text = await response.text();
    if (isShed(response.status, text) && shed < maxShed) {
      await sleep(1000);
      continue;
    }
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
    return {
      text,
      json:
        text && /json/.test(response.headers.get('content-type') ?? '')
          ? (JSON.parse(text) as unknown)
          : null,
    };
  }
}

// The apps' resident memory, sampled every 200 ms while the calls run: the peak of each.
class PeakMemory {
  readonly peak = Object.fromEntries(apps.map((app) => [app, 0])) as Record<AppName, number>;
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly stack: RegionStack) {}

  start(): void {
    this.timer = setInterval(() => {
      for (const app of apps) {
        try {
          const mb = rssMb(this.stack.app(app).pid);
          if (mb > this.peak[app]) this.peak[app] = mb;
        } catch {
          // An app that stopped has no memory to read: its peak so far stands.
        }
      }
    }, 200);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  rounded(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.peak).map(([app, mb]) => [app, round(mb)]));
  }
}
