import { type ResponseQuery, responsesDeletedEventSchema, Subjects } from '@formline/contracts';
import { type ResponsesPrismaClient, responsesKeyedPool, responsesSqlPool } from '@formline/db';
import {
  genericPlanOf,
  scratchResponsesDatabase,
  type ScratchDatabase,
  stepsBeyondKeys,
} from '@formline/testing';
import { markPublishedSql } from './outbox/outbox.repository';
import { insertResponsesWithEventsSql } from './response-insert.statements';
import { ResponseRepository, type NewResponse } from './response.repository';
import { responseAt } from './response.fixture';
import { ResponseTallyRepository } from './tallies/response-tally.repository';

type SortField = ResponseQuery['sort']['field'];
type Order = ResponseQuery['sort']['order'];

// Seven responses whose submission order and landing order differ, with ties
// on both columns, and ids that order them otherwise again: paging on the
// wrong column, or breaking ties other than the ORDER BY does, shows up as a
// response skipped or repeated.
const base = Date.parse('2026-03-01T12:00:00Z');
const fixture = [
  { name: 'a', id: 'r5', submitted: 10, landed: 5 },
  { name: 'b', id: 'r7', submitted: 20, landed: 1 },
  { name: 'c', id: 'r2', submitted: 20, landed: 9 },
  { name: 'd', id: 'r1', submitted: 30, landed: 9 },
  { name: 'e', id: 'r6', submitted: 40, landed: 3 },
  { name: 'f', id: 'r3', submitted: 40, landed: 9 },
  { name: 'g', id: 'r4', submitted: 50, landed: 2 },
];
const formId = 'form-paging';
const accountId = 'account-paging';

const newResponse = (
  response: { id: string; submitted: number; landed: number },
  extra: Partial<NewResponse> = {},
) => responseAt(response, extra, { base, formId, accountId });

// The fixture in the listing's order: the sorted column, then the id, both in the page's direction.
function expectedOrder(field: SortField, order: Order): string[] {
  const column = field === 'landed_at' ? 'landed' : 'submitted';
  const sign = order === 'asc' ? 1 : -1;
  return [...fixture]
    .sort((x, y) => sign * (x[column] - y[column] || (x.id < y.id ? -1 : 1)))
    .map((row) => row.name);
}

describe('ResponseRepository against PostgreSQL', () => {
  let database: ScratchDatabase<ResponsesPrismaClient>;
  let repository: ResponseRepository;

  beforeAll(async () => {
    database = await scratchResponsesDatabase();
    repository = new ResponseRepository(database.client, new ResponseTallyRepository(database.client), {
      RESPONSES_FILTERED_COUNT_LIMIT: 3,
    });
    for (const response of fixture) {
      expect(await repository.insertWithEvent(newResponse(response))).not.toBeNull();
    }
    // The same account's response to another form.
    const elsewhere = newResponse(
      { id: 'r-elsewhere', submitted: 25, landed: 25 },
      { formId: 'form-elsewhere' },
    );
    expect(await repository.insertWithEvent(elsewhere)).not.toBeNull();
  });

  afterAll(() => database?.dispose());

  const nameOf = (id: string) => fixture.find((row) => row.id === id)?.name ?? id;
  const page = async (
    sort: ResponseQuery['sort'],
    pageSize: number,
    cursor: { after?: string; before?: string },
  ) => (await repository.list(accountId, formId, { sort, pageSize, ...cursor })).rows.map((row) => row.id);

  // `before` pages towards earlier values of the sorted column, `after` towards
  // later ones, whatever the order the page is shown in: the next page of a
  // descending listing is `before` its last response, of an ascending one `after` it.
  const towardsEnd = (order: Order, id: string) => (order === 'desc' ? { before: id } : { after: id });
  const towardsStart = (order: Order, id: string) => (order === 'desc' ? { after: id } : { before: id });

  describe.each([
    ['submitted_at', 'desc'],
    ['submitted_at', 'asc'],
    ['landed_at', 'desc'],
    ['landed_at', 'asc'],
  ] as const)('sort=%s,%s', (field, order) => {
    const sort = { field, order };

    it.each([1, 2, 3])('pages forwards through every response once, %i a page', async (pageSize) => {
      const seen: string[] = [];
      let ids = await page(sort, pageSize, {});
      while (ids.length > 0) {
        expect(ids.length).toBeLessThanOrEqual(pageSize);
        seen.push(...ids);
        ids = await page(sort, pageSize, towardsEnd(order, ids.at(-1)!));
      }
      expect(seen.map(nameOf)).toEqual(expectedOrder(field, order));
    });

    it.each([1, 2, 3])('pages backwards from the last response to the first, %i a page', async (pageSize) => {
      const expected = expectedOrder(field, order);
      const last = fixture.find((row) => row.name === expected.at(-1))!.id;
      const seen = [last];
      let ids = await page(sort, pageSize, towardsStart(order, last));
      while (ids.length > 0) {
        // Each page is the one right before its cursor, shown in the listing's order.
        expect(ids.length).toBeLessThanOrEqual(pageSize);
        seen.unshift(...ids);
        ids = await page(sort, pageSize, towardsStart(order, ids[0]));
      }
      expect(seen.map(nameOf)).toEqual(expected);
    });

    it('answers an empty page for a cursor that names no response of the form', async () => {
      for (const cursor of ['no-such-response', 'r-elsewhere']) {
        for (const direction of ['before', 'after'] as const) {
          const listed = await repository.list(accountId, formId, { sort, pageSize: 5, [direction]: cursor });
          expect(listed).toEqual({ total: 0, rows: [] });
        }
      }
    });
  });

  it("reads no more than a page's bytes of payloads, the rows nearest the cursor first", async () => {
    // Six responses of about 300 kB of stored JSON each (a text that
    // compresses to almost nothing: the bytes counted are the JSON's). A
    // page holds 768 KiB: the rows that start before that, three of them.
    const bigForm = 'form-big-responses';
    const filler = 'x'.repeat(300_000);
    await database.client.response.createMany({
      data: Array.from({ length: 6 }, (_, i) => ({
        id: `big${i + 1}`,
        formId: bigForm,
        accountId,
        responseType: 'completed',
        landedAt: new Date(base + (i + 1) * 1000),
        submittedAt: new Date(base + (i + 1) * 1000),
        payload: { token: `big${i + 1}`, answers: [filler] },
        searchText: '',
        answeredFields: [],
      })),
    });
    const sort = { field: 'submitted_at', order: 'desc' } as const;
    const ids = async (cursor: { after?: string; before?: string }) => {
      const { rows } = await repository.list(accountId, bigForm, { sort, pageSize: 1000, ...cursor });
      for (const row of rows) expect(row.payload).toMatchObject({ answers: [filler] });
      return rows.map((row) => row.id);
    };
    expect(await ids({})).toEqual(['big6', 'big5', 'big4']);
    // Times and type come with the payload, as stored (UTC).
    const [newest] = (await repository.list(accountId, bigForm, { sort, pageSize: 1 })).rows;
    expect(newest).toMatchObject({
      responseType: 'completed',
      landedAt: new Date(base + 6000),
      submittedAt: new Date(base + 6000),
    });
    expect(await ids({ before: 'big6' })).toEqual(['big5', 'big4', 'big3']);
    // Read upwards from the cursor, shown newest first: the three just after it.
    expect(await ids({ after: 'big1' })).toEqual(['big4', 'big3', 'big2']);
  });

  it('pages landed_at on landed_at: the page after a response is what landed after it', async () => {
    // d landed at 9 but was submitted at 30: after it, on landed_at, come only the 9s with larger ids.
    const sort = { field: 'landed_at', order: 'asc' } as const;
    expect((await page(sort, 10, { after: 'r1' })).map(nameOf)).toEqual(['c', 'f']);
    expect((await page(sort, 10, { before: 'r1' })).map(nameOf)).toEqual(['b', 'g', 'e', 'a']);
  });

  it('writes the response and its event together, and once per idempotency key', async () => {
    const keyed = newResponse(
      { id: 'r-keyed', submitted: 60, landed: 60 },
      { formId: 'form-keyed', idempotencyKey: 'k1' },
    );
    const written = await repository.insertWithEvent(keyed);
    expect(written).toEqual({
      id: keyed.built.event.event_id,
      subject: Subjects.responsesResponseSubmitted,
      payload: JSON.stringify(keyed.built.event),
      requestId: null,
    });
    const again = newResponse(
      { id: 'r-keyed-2', submitted: 61, landed: 61 },
      { formId: 'form-keyed', idempotencyKey: 'k1' },
    );
    expect(await repository.insertWithEvent(again)).toBeNull();

    const outbox = await database.client.outboxEvent.findMany({
      where: { id: { in: [keyed.built.event.event_id, again.built.event.event_id] } },
    });
    expect(outbox.map((row) => row.id)).toEqual([keyed.built.event.event_id]);
    expect(outbox[0].payload).toEqual(keyed.built.event);
    // What the relay publishes at once is what it would read back from the row.
    const [stored] = await database.client.$queryRaw<{ payload: string }[]>`
      SELECT payload::text AS payload FROM outbox_events WHERE id = ${keyed.built.event.event_id}`;
    expect(stored.payload).toBe(written?.payload);
    expect(await database.client.response.findUnique({ where: { id: 'r-keyed-2' } })).toBeNull();
    expect(await repository.findByIdempotencyKey('form-keyed', 'k1')).toEqual({
      payload: keyed.built.resource,
      requestHash: 'hash',
    });
  });

  it("plans the keyed statements once and through indexes, Prisma's named reads on every run, the row triggers' functions once, and the tallies' deltas inline", async () => {
    const sql = responsesSqlPool(database.client);
    const { rows } = await sql.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode');
    expect(rows[0].plan_cache_mode).toBe('force_custom_plan');
    const keyed = await responsesKeyedPool(database.client).connect();
    try {
      const settings = await keyed.query<{ name: string; setting: string }>(
        `SELECT name, setting FROM pg_settings
         WHERE name IN ('plan_cache_mode', 'enable_seqscan', 'enable_hashjoin', 'enable_mergejoin', 'jit')
         ORDER BY name`,
      );
      expect(Object.fromEntries(settings.rows.map((row) => [row.name, row.setting]))).toEqual({
        enable_hashjoin: 'off',
        enable_mergejoin: 'off',
        enable_seqscan: 'off',
        jit: 'off',
        plan_cache_mode: 'force_generic_plan',
      });
      // The intake's insert and the outbox's mark on a connection of that
      // pool: key lookups, whatever the tables hold (and however many rows
      // are unpublished).
      const insertPlan = await genericPlanOf(keyed, insertResponsesWithEventsSql);
      expect(insertPlan).toContain('Insert on responses');
      expect(stepsBeyondKeys(insertPlan, /outbox_events_published_at/)).toEqual([]);
      const markPlan = await genericPlanOf(keyed, markPublishedSql);
      expect(markPlan).toContain('Index Cond');
      expect(stepsBeyondKeys(markPlan, /outbox_events_published_at/)).toEqual([]);
    } finally {
      keyed.release();
    }
    // Run once a row, they would otherwise plan their statements on every call.
    const functions = await sql.query<{ proname: string; proconfig: string[] | null }>(
      `SELECT proname, proconfig FROM pg_proc
       WHERE proname LIKE 'response%' AND prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql')`,
    );
    expect(functions.rows.length).toBeGreaterThanOrEqual(4);
    for (const row of functions.rows) {
      expect({ [row.proname]: row.proconfig }).toEqual({ [row.proname]: ['plan_cache_mode=auto'] });
    }
    // The tallies' deltas are planned inside the trigger's statement, not
    // called once a row: a SQL function with no SET clause, which the planner inlines.
    const plan = await sql.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT delta.* FROM responses AS r,
         LATERAL response_tally_deltas(r.response_type, r.landed_at, r.submitted_at, r.payload, 1) AS delta`,
    );
    const steps = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(steps).toContain('jsonb_array_elements');
    expect(steps).not.toContain('Function Scan on response_tally_deltas');
  });

  // The sizes of the shared inserts `statements` saw, in order.
  const insertSizes = (statements: jest.SpyInstance) =>
    statements.mock.calls
      .map(([query]) => query as unknown as { name?: string; values: unknown[][] })
      .filter((query) => query.name === 'responses-insert-with-events')
      .map((query) => query.values[0].length);

  const storedOf = async (formId: string) =>
    (
      await database.client.response.findMany({
        where: { formId },
        select: { id: true },
        orderBy: { id: 'asc' },
      })
    ).map((row) => row.id);

  it('writes submissions that come together in one statement, a taken key left out with its event', async () => {
    const form = 'form-batch-keys';
    const statements = jest.spyOn(responsesKeyedPool(database.client), 'query');
    const together = [
      newResponse({ id: 'k-1', submitted: 70, landed: 70 }, { formId: form }),
      newResponse({ id: 'k-2', submitted: 71, landed: 71 }, { formId: form, idempotencyKey: 'kb' }),
      // The same key as the one before it, in the same statement: left out, its writer looks again.
      newResponse({ id: 'k-3', submitted: 72, landed: 72 }, { formId: form, idempotencyKey: 'kb' }),
      newResponse({ id: 'k-4', submitted: 73, landed: 73 }, { formId: form, progressKey: 'pk' }),
    ];
    const answers = await Promise.all(together.map((row) => repository.insertWithEvent(row)));
    const sizes = insertSizes(statements);
    statements.mockRestore();
    expect(answers.map((answer) => answer?.id ?? null)).toEqual([
      together[0].built.event.event_id,
      together[1].built.event.event_id,
      null,
      together[3].built.event.event_id,
    ]);
    // The first went alone; the three that came meanwhile shared one statement.
    expect(sizes).toEqual([1, 3]);
    expect(await storedOf(form)).toEqual(['k-1', 'k-2', 'k-4']);
    const events = await database.client.outboxEvent.findMany({
      where: { responseId: { in: together.map((row) => row.built.token) } },
      select: { responseId: true },
      orderBy: { responseId: 'asc' },
    });
    expect(events.map((row) => row.responseId)).toEqual(['k-1', 'k-2', 'k-4']);
  });

  it('tries the rows of a statement PostgreSQL refused for a row again alone: only that row fails', async () => {
    const form = 'form-batch-refused';
    const statements = jest.spyOn(responsesKeyedPool(database.client), 'query');
    const together = [
      newResponse({ id: 'r-1', submitted: 80, landed: 80 }, { formId: form }),
      newResponse({ id: 'r-2', submitted: 81, landed: 81 }, { formId: form }),
      // A NUL character in a text column: PostgreSQL refuses the statement.
      {
        ...newResponse({ id: 'r-3', submitted: 82, landed: 82 }, { formId: form }),
        requestHash: 'bad\u0000',
      },
      newResponse({ id: 'r-4', submitted: 83, landed: 83 }, { formId: form }),
    ];
    const outcomes = await Promise.allSettled(together.map((row) => repository.insertWithEvent(row)));
    const sizes = insertSizes(statements);
    statements.mockRestore();
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(sizes).toEqual([1, 3, 1, 1, 1]);
    expect(await storedOf(form)).toEqual(['r-1', 'r-2', 'r-4']);
  });

  it('fails every row of a statement whose outcome is unknown (the connection lost), and tries none again', async () => {
    const form = 'form-batch-lost';
    const pool = responsesKeyedPool(database.client);
    const original = Object.getOwnPropertyDescriptor(pool, 'query');
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    const sizes: number[] = [];
    // The shared statement commits, and its answer is lost on the way back.
    const answerLost = async (...args: unknown[]): Promise<unknown> => {
      const [config] = args as [{ name?: string; values: unknown[][] }];
      const shared = config.name === 'responses-insert-with-events';
      if (shared) sizes.push(config.values[0].length);
      const answer = await query(...args);
      if (shared && config.values[0].length > 1) throw new Error('Connection terminated unexpectedly');
      return answer;
    };
    pool.query = answerLost as never;
    try {
      const together = [1, 2, 3].map((n) =>
        newResponse({ id: `l-${n}`, submitted: 90 + n, landed: 90 + n }, { formId: form }),
      );
      const outcomes = await Promise.allSettled(together.map((row) => repository.insertWithEvent(row)));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    } finally {
      if (original) Object.defineProperty(pool, 'query', original);
      else delete (pool as { query?: unknown }).query;
    }
    expect(sizes).toEqual([1, 2]);
    // Written once each, never again under another token.
    expect(await storedOf(form)).toEqual(['l-1', 'l-2', 'l-3']);
  });

  it("deletes only the account's own responses of the form", async () => {
    expect(await repository.delete('someone-else', 'form-elsewhere', ['r-elsewhere'], noBytes)).toBe(0);
    expect(await repository.delete(accountId, 'form-elsewhere', ['r-elsewhere', 'r5'], noBytes)).toBe(1);
    expect(await repository.count(formId)).toBe(fixture.length);
  });

  it('deletes the outbox events of the responses it deletes, published or not, and writes the one announcing it', async () => {
    const eventsOf = (ids: string[]) =>
      database.client.$queryRaw<{ id: string }[]>`
        SELECT id FROM outbox_events WHERE payload -> 'form_response' ->> 'token' = ANY(${ids}::text[])`;
    for (const id of ['r-gone-1', 'r-gone-2', 'r-kept'])
      await repository.insertWithEvent(
        newResponse({ id, submitted: 60, landed: 60 }, { formId: 'form-gone' }),
      );
    // One of them relayed already: its row is kept a day, with the answers in it.
    const [relayed] = await eventsOf(['r-gone-1']);
    await database.client.$executeRaw`UPDATE outbox_events SET published_at = now() WHERE id = ${relayed.id}`;

    expect(await repository.delete(accountId, 'form-gone', ['r-gone-1', 'r-gone-2', 'r-none'], noBytes)).toBe(
      2,
    );

    expect(await eventsOf(['r-gone-1', 'r-gone-2'])).toEqual([]);
    expect(await eventsOf(['r-kept'])).toHaveLength(1);
    const announced = await database.client.$queryRaw<
      { payload: Record<string, unknown>; published: boolean }[]
    >`
      SELECT payload, published_at IS NOT NULL AS published FROM outbox_events
       WHERE subject = ${Subjects.responsesResponsesDeleted} AND payload ->> 'form_id' = 'form-gone'`;
    expect(announced.map((row) => row.published)).toEqual([false]);
    const event = responsesDeletedEventSchema.parse(announced[0].payload);
    expect(event).toMatchObject({ account_id: accountId, form_id: 'form-gone' });
    expect([...event.response_tokens].sort()).toEqual(['r-gone-1', 'r-gone-2']);
  });
});

// Nothing here holds uploads: no bytes to remove.
const noBytes = () => Promise.resolve();
