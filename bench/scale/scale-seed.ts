import type { Client } from 'pg';
// Seeds a form's responses straight into the region's responses database: a
// million through the API would take hours. Each row is made from rows the
// service itself stored for the form (one completed, one partial response
// answering every question), with the values varied per row in SQL and the
// shape kept byte for byte: the same keys in the same order, the same
// `search_text` as the service derives it. Only the columns the service
// writes are inserted, so whatever the database derives from a row
// (defaults, triggers) it derives for these rows too.

export interface TemplateRows {
  completed: { payload: string; searchText: string };
  partial: { payload: string; searchText: string };
}

export interface SeedTarget {
  formId: string;
  accountId: string;
  /** Responses to write. */
  count: number;
  /** The plan question's choices as the global service stored them (ids made there). */
  planChoices: Array<{ id: string; ref: string; label: string }>;
}

// Every 20th response is partial (saved, never submitted); every 5,000th
// feedback holds the rare word; about 30% hold the common one; about half
// answer the phone question.
export const seedShape = {
  partialEvery: 20,
  rareEvery: 5000,
  commonShare: 0.3,
  commonWord: 'great',
  rareWord: 'zanzibar',
  phoneShare: 0.5,
  days: 365,
};

const firstNames = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Edsger',
  'Katherine',
  'John',
  'Radia',
  'Tim',
  'Hedy',
  'Donald',
  'Sophie',
  'Niklaus',
  'Joan',
  'Guido',
  'Anita',
  'Bjarne',
  'Karen',
  'James',
  'Lynn',
  'Vint',
  'Mary',
  'Robert',
  'Evelyn',
  'Leslie',
];
const lastNames = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Allen',
  'Dijkstra',
  'Johnson',
  'McCarthy',
  'Perlman',
  'Lee',
  'Lamarr',
  'Knuth',
  'Wilson',
  'Wirth',
  'Clarke',
  'Rossum',
  'Borg',
  'Stroustrup',
  'Jones',
  'Gosling',
  'Conway',
  'Cerf',
  'Kenneth',
  'Noyce',
  'Boyd',
];
const domains = ['example.com', 'example.org', 'example.net', 'mail.example', 'corp.example'];
const sources = ['newsletter', 'twitter', 'linkedin', 'website', 'partner', 'ads', 'event'];
const campaigns = ['spring-launch', 'summer-sale', 'autumn-webinar', 'winter-promo', 'onboarding'];
const userAgents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
];
// Feedback words: none holds the common or the rare word inside it.
const words = (
  'the product works well for our team and the support answered fast but the pricing page was ' +
  'confusing when we tried to add more seats reports are clear export could be faster we use it ' +
  'every week for customer surveys onboarding took ten minutes the editor feels quick on mobile ' +
  'though some questions looked cramped please add more themes dark mode would help integrations ' +
  'with our crm saved hours love the logic jumps and hidden fields nice webhooks delivery is ' +
  'reliable documentation could show more examples billing emails arrive late overall happy ' +
  'would recommend to colleagues needs better search in responses filters by date are handy ' +
  'slow sometimes in the afternoon translations into french and german were good'
).split(' ');

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
const textArray = (values: readonly string[]) => `ARRAY[${values.map(quote).join(', ')}]`;
const pick = (values: readonly string[]) =>
  `(${textArray(values)})[1 + floor(random() * ${values.length})::int]`;
const jsonText = (sql: string) => `to_json(${sql})::text`;
const isoSeconds = (sql: string) => `'"' || to_char(${sql}, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '"'`;

// Values of one row, drawn once (a MATERIALIZED CTE is evaluated once per row,
// so the payload and the search text read the same draw).
function drawsSql(target: SeedTarget): string {
  const s = seedShape;
  return `SELECT i,
      md5(${quote(target.formId)} || ':' || i) AS token,
      (i % ${s.partialEvery} = 0) AS partial,
      date_trunc('milliseconds', $3::timestamp - random() * interval '${s.days} days') AS submitted_at,
      (20 + random() * 900) * interval '1 second' AS took,
      1 + floor(random() * 9)::int AS answered,
      ${pick(firstNames)} AS first_name,
      ${pick(lastNames)} AS last_name,
      ${pick(domains)} AS domain,
      floor(random() * ${target.planChoices.length})::int AS plan,
      1 + floor(random() * 5)::int AS rating,
      random() < 0.7 AS recommend,
      CASE WHEN random() < ${s.phoneShare} THEN '+1555' || lpad(floor(random() * 10000000)::int::text, 7, '0') END AS phone,
      CASE WHEN random() < ${s.commonShare} THEN '${s.commonWord} ' ELSE '' END
        || (SELECT string_agg((${textArray(words)})[1 + floor(random() * ${words.length})::int], ' ')
              FROM generate_series(1, 6 + i % 13))
        || CASE WHEN i % ${s.rareEvery} = 1 THEN ' ${s.rareWord}' ELSE '' END AS feedback,
      ${pick(sources)} AS source,
      ${pick(campaigns)} AS campaign,
      ${pick(userAgents)} AS user_agent
    FROM generate_series($1::int, $2::int) AS i`;
}

interface AnswerSql {
  ref: string;
  /** The answer's JSON text. */
  json: string;
  /** What it adds to search_text (lower-cased as the service does), or null. */
  search: string;
  /** Its presence: null when every response answers it. */
  when: string | null;
}

// A JSON text with some of its values replaced by SQL expressions: `@@name@@`
// markers set in a parsed copy, the text cut at each and joined with concat.
function jsonWithValues(shape: unknown, values: Record<string, string>): string {
  const text = JSON.stringify(shape);
  const parts = text.split(/"@@(\w+)@@"/);
  const pieces = parts.map((part, i) => {
    if (i % 2 === 0) return quote(part);
    const value = values[part];
    if (value === undefined) throw new Error(`seed: no value for ${part}`);
    return `(${value})`;
  });
  return `concat(${pieces.join(', ')})`;
}

interface StoredAnswer {
  field: { ref: string };
  type: string;
  [key: string]: unknown;
}

function answersSql(template: StoredAnswer[], target: SeedTarget): AnswerSql[] {
  const choiceJson = (shape: Record<string, unknown>, choice: Record<string, unknown>) =>
    JSON.stringify(Object.fromEntries(Object.keys(shape).map((key) => [key, choice[key]])));
  return template.map((answer) => {
    const ref = answer.field.ref;
    let value: string;
    let search: string;
    let when: string | null = null;
    switch (ref) {
      case 'name':
        value = jsonText(`first_name || ' ' || last_name`);
        search = `lower(first_name || ' ' || last_name)`;
        break;
      case 'email':
        search = `lower(first_name || '.' || last_name || '.' || i || '@' || domain)`;
        value = jsonText(search);
        break;
      case 'plan': {
        const shape = answer.choice as Record<string, unknown>;
        value = `(${textArray(target.planChoices.map((c) => choiceJson(shape, c)))})[plan + 1]`;
        search = `(${textArray(target.planChoices.map((c) => c.label.toLowerCase()))})[plan + 1]`;
        break;
      }
      case 'rating':
        value = search = 'rating::text';
        break;
      case 'recommend':
        value = search = `CASE WHEN recommend THEN 'true' ELSE 'false' END`;
        break;
      case 'phone':
        value = jsonText('phone');
        search = 'phone';
        when = 'phone IS NOT NULL';
        break;
      case 'feedback':
        value = jsonText('feedback');
        search = 'lower(feedback)';
        break;
      default:
        throw new Error(`seed: the template answers ${ref}, which the seed does not know`);
    }
    return { ref, json: jsonWithValues({ ...answer, [answer.type]: '@@value@@' }, { value }), search, when };
  });
}

// The payload's JSON and the search text of one kind of row (completed or
// partial: a partial one holds its first `answered` answers).
function rowSql(template: { payload: string }, target: SeedTarget, partial: boolean) {
  const payload = JSON.parse(template.payload) as Record<string, unknown> & {
    answers: StoredAnswer[];
    hidden: Record<string, string>;
    metadata: Record<string, unknown>;
  };
  const answers = answersSql(payload.answers, target);
  const present = (answer: AnswerSql, index: number) =>
    [answer.when, partial ? `${index + 1} <= answered` : null].filter(Boolean).join(' AND ') || null;
  const guarded = (answer: AnswerSql, index: number, sql: string) => {
    const condition = present(answer, index);
    return condition ? `CASE WHEN ${condition} THEN ${sql} END` : sql;
  };
  const hiddenValues: Record<string, string> = {
    source: 'source',
    campaign: 'campaign',
    customer_id: `'c-' || lpad(i::text, 7, '0')`,
  };
  const shape = {
    ...payload,
    landing_id: '@@token@@',
    token: '@@token@@',
    response_id: '@@token@@',
    landed_at: '@@landed@@',
    ...(partial ? {} : { submitted_at: '@@submitted@@' }),
    metadata: { ...payload.metadata, user_agent: '@@agent@@' },
    hidden: Object.fromEntries(Object.keys(payload.hidden).map((key) => [key, `@@hidden_${key}@@`])),
    answers: '@@answers@@',
  };
  const values: Record<string, string> = {
    token: `'"' || token || '"'`,
    landed: isoSeconds('submitted_at - took'),
    submitted: isoSeconds('submitted_at'),
    agent: jsonText('user_agent'),
    answers: `'[' || concat_ws(',', ${answers.map((a, i) => guarded(a, i, a.json)).join(', ')}) || ']'`,
  };
  for (const key of Object.keys(payload.hidden)) {
    if (!hiddenValues[key])
      throw new Error(`seed: the template has hidden field ${key}, unknown to the seed`);
    values[`hidden_${key}`] = jsonText(hiddenValues[key]);
  }
  const search = `concat_ws(E'\\n', ${[
    ...answers.map((a, i) => guarded(a, i, a.search)),
    ...Object.keys(payload.hidden).map((key) => hiddenValues[key]),
  ].join(', ')})`;
  return { payload: jsonWithValues(shape, values), search };
}

export function insertSql(templates: TemplateRows, target: SeedTarget): string {
  const completed = rowSql(templates.completed, target, false);
  const partial = rowSql(templates.partial, target, true);
  return `WITH r AS MATERIALIZED (${drawsSql(target)})
    INSERT INTO responses (id, form_id, account_id, response_type, landed_at, submitted_at, payload,
      search_text, idempotency_key, request_hash, request_id, progress_key, created_at)
    SELECT token, ${quote(target.formId)}, ${quote(target.accountId)},
      CASE WHEN partial THEN 'partial' ELSE 'completed' END,
      submitted_at - took, submitted_at,
      (CASE WHEN partial THEN ${partial.payload} ELSE ${completed.payload} END)::json,
      CASE WHEN partial THEN ${partial.search} ELSE ${completed.search} END,
      CASE WHEN i % 10 = 3 AND NOT partial THEN 'retry-' || token END,
      encode(sha256(convert_to('body-' || token, 'UTF8')), 'hex'),
      gen_random_uuid()::text,
      CASE WHEN partial OR i % 5 = 1 THEN encode(sha256(convert_to('progress-' || token, 'UTF8')), 'hex') END,
      submitted_at
    FROM r`;
}

// Writes `target.count` responses, `batch` a statement, saying how far it got.
export async function seedResponses(
  db: Client,
  templates: TemplateRows,
  target: SeedTarget,
  progress: (text: string) => void,
  batch = 50_000,
): Promise<void> {
  const sql = insertSql(templates, target);
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  const started = Date.now();
  for (let from = 1; from <= target.count; from += batch) {
    const to = Math.min(target.count, from + batch - 1);
    await db.query(sql, [from, to, now]);
    const seconds = (Date.now() - started) / 1000;
    progress(
      `  seeded ${to} of ${target.count} responses (${Math.round(to / Math.max(seconds, 0.001))}/s, ${Math.round(seconds)} s)`,
    );
  }
  // Every table: whatever the database keeps beside the rows (tallies, search
  // indexes) gets its statistics and visibility map too, as a table that
  // filled over a year would have.
  progress('  VACUUM ANALYZE...');
  await db.query('VACUUM ANALYZE');
}

// The expected search text of a stored row, from its payload, as the service
// derives it: checks that the seed's reading of the format still holds.
export function searchTextOf(payloadText: string): string {
  const payload = JSON.parse(payloadText) as { answers: StoredAnswer[]; hidden: Record<string, string> };
  const parts = payload.answers.flatMap((answer) => {
    const value = answer[answer.type];
    if (answer.type === 'choice') return [(value as { label?: string }).label];
    if (answer.type === 'choices') return (value as { labels?: string[] }).labels ?? [];
    return [String(value)];
  });
  return [...parts, ...Object.values(payload.hidden)]
    .filter((part) => part !== undefined && part !== '')
    .join('\n')
    .toLowerCase();
}

// Keys and value types of a JSON value, recursively (an array by the distinct
// shapes of its elements): two rows of the same shape differ only in values.
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) {
    const shapes = new Map(value.map((v) => [JSON.stringify(shapeOf(v)), shapeOf(v)]));
    return [...shapes.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, shape]) => shape);
  }
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shapeOf(v)]));
  return typeof value;
}
