import { inputLimits } from '@formline/input';
import type { Client } from 'pg';
import { api } from './scale-http';
import { seedShape } from './scale-seed';

// The calls the data-scale stage makes on each form, each with the SQL of its
// floor (the same page straight from PostgreSQL, without counting), and the
// values they name, read from the database.

export interface ScaleForm {
  size: number;
  accountId: string;
  formId: string;
  token: string;
}

// What a call needs of its form: the API path, and the SQL of its floor.
export interface CallSpec {
  name: string;
  /** Held to the 50 ms target at the big size: a page of 25 responses, the distribution of answers. */
  under50ms: boolean;
  path: (f: ScaleForm, p: FormParameters) => string;
  anonymous?: boolean;
  floor?: (f: ScaleForm, p: FormParameters) => { text: string; values: unknown[] };
}

export interface FormParameters {
  day: { since: string; until: string };
  firstPageLast: { id: string; submittedAt: Date };
  middle: { id: string; submittedAt: Date };
  included: string[];
  excluded: string[];
}

// As many 32-character tokens as the gateway takes in one query value (comma-separated).
export const idsAtLimit = Math.floor((inputLimits.queryValue + 1) / 33);

export const columns = 'id, response_type, submitted_at, landed_at, payload';
export const completedOf = `FROM responses WHERE form_id = $1 AND account_id = $2 AND response_type = 'completed'`;
export const page = (where: string, order: string, limit = 25) =>
  `SELECT ${columns} ${completedOf} ${where} ORDER BY ${order} LIMIT ${limit}`;
export const newestFirst = 'submitted_at DESC, id DESC';
export const base = (f: ScaleForm) => [f.formId, f.accountId];
export const defaultFloor = (f: ScaleForm) => ({ text: page('', newestFirst), values: base(f) });

export const calls: CallSpec[] = [
  {
    name: 'GET responses (page_size=25)',
    under50ms: true,
    path: (f) => `/forms/${f.formId}/responses?page_size=25`,
    floor: defaultFloor,
  },
  {
    name: 'page_size=1000',
    under50ms: false,
    path: (f) => `/forms/${f.formId}/responses?page_size=1000`,
    floor: (f) => ({ text: page('', newestFirst, 1000), values: base(f) }),
  },
  {
    name: 'sort=submitted_at,asc',
    under50ms: true,
    path: (f) => `/forms/${f.formId}/responses?sort=submitted_at,asc`,
    floor: (f) => ({ text: page('', 'submitted_at ASC, id ASC'), values: base(f) }),
  },
  {
    name: 'sort=landed_at,desc',
    under50ms: true,
    path: (f) => `/forms/${f.formId}/responses?sort=landed_at,desc`,
    floor: (f) => ({ text: page('', 'landed_at DESC, id DESC'), values: base(f) }),
  },
  {
    name: `query=${seedShape.commonWord} (~${seedShape.commonShare * 100}%)`,
    under50ms: true,
    path: (f) => `/forms/${f.formId}/responses?query=${seedShape.commonWord}`,
    floor: (f) => ({
      text: page('AND search_text LIKE $3', newestFirst),
      values: [...base(f), `%${seedShape.commonWord}%`],
    }),
  },
  {
    name: `query=${seedShape.rareWord} (1 in ${seedShape.rareEvery})`,
    under50ms: true,
    path: (f) => `/forms/${f.formId}/responses?query=${seedShape.rareWord}`,
    floor: (f) => ({
      text: page('AND search_text LIKE $3', newestFirst),
      values: [...base(f), `%${seedShape.rareWord}%`],
    }),
  },
  {
    name: `answered_fields=phone (~${seedShape.phoneShare * 100}%)`,
    under50ms: true,
    path: (f) => `/forms/${f.formId}/responses?answered_fields=phone`,
    floor: (f) => ({
      text: page(`AND payload::jsonb->'answers' @> $3::jsonb`, newestFirst),
      values: [...base(f), JSON.stringify([{ field: { ref: 'phone' } }])],
    }),
  },
  {
    name: 'response_type=partial',
    under50ms: true,
    path: (f) => `/forms/${f.formId}/responses?response_type=partial`,
    floor: (f) => ({
      text: page('', newestFirst).replace(`response_type = 'completed'`, `response_type = 'partial'`),
      values: base(f),
    }),
  },
  {
    name: 'since/until one day',
    under50ms: true,
    path: (f, p) => `/forms/${f.formId}/responses?since=${p.day.since}&until=${p.day.until}`,
    floor: (f, p) => ({
      text: page('AND submitted_at >= $3 AND submitted_at <= $4', newestFirst),
      values: [...base(f), p.day.since.replace('Z', ''), p.day.until.replace('Z', '.999')],
    }),
  },
  {
    name: 'before=<last of page 1> (next page)',
    under50ms: true,
    path: (f, p) => `/forms/${f.formId}/responses?before=${p.firstPageLast.id}`,
    floor: (f, p) => ({
      text: page('AND (submitted_at, id) < ($3, $4)', newestFirst),
      values: [...base(f), p.firstPageLast.submittedAt, p.firstPageLast.id],
    }),
  },
  {
    name: 'after=<a token mid-form>',
    under50ms: true,
    path: (f, p) => `/forms/${f.formId}/responses?after=${p.middle.id}`,
    floor: (f, p) => ({
      text: page('AND (submitted_at, id) > ($3, $4)', 'submitted_at ASC, id ASC'),
      values: [...base(f), p.middle.submittedAt, p.middle.id],
    }),
  },
  {
    name: `included_response_ids (${idsAtLimit}, the limit)`,
    under50ms: true,
    path: (f, p) => `/forms/${f.formId}/responses?included_response_ids=${p.included.join(',')}`,
    floor: (f, p) => ({ text: page('AND id = ANY($3)', newestFirst), values: [...base(f), p.included] }),
  },
  {
    name: `excluded_response_ids (${idsAtLimit} newest)`,
    under50ms: true,
    path: (f, p) => `/forms/${f.formId}/responses?excluded_response_ids=${p.excluded.join(',')}`,
    floor: (f, p) => ({
      text: page('AND NOT (id = ANY($3))', newestFirst),
      values: [...base(f), p.excluded],
    }),
  },
  {
    name: 'GET /insights/{id}/summary',
    under50ms: false,
    path: (f) => `/insights/${f.formId}/summary`,
  },
  {
    // Beyond Typeform's API: read from running tallies, as the summary.
    name: 'GET /insights/{id}/answers',
    under50ms: true,
    path: (f) => `/insights/${f.formId}/answers`,
  },
  {
    // The welcome screen shows the number of submissions: counted per view.
    name: 'respondent page /to/{id} (submission count)',
    under50ms: false,
    anonymous: true,
    path: (f) => `/to/${f.formId}`,
  },
];

// The values the calls name: a day in the middle of the year, the first
// page's last response, one from the middle, ids at the gateway's limit.
export async function formParameters(sql: Client, form: ScaleForm): Promise<FormParameters> {
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
export async function welcomeCount(baseUrl: string, form: ScaleForm): Promise<number | undefined> {
  const html = (await api(baseUrl, undefined, 'GET', `/to/${form.formId}`)).text;
  const match = /"submissionCount":(\d+)/.exec(html);
  return match ? Number(match[1]) : undefined;
}
