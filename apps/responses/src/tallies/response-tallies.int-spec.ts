import { randomUUID } from 'node:crypto';
import type { ResponseType } from '@formline/contracts';
import type { ResponsesPrismaClient } from '@formline/db';
import { scratchResponsesDatabase, type ScratchDatabase } from '@formline/testing';
import {
  type AnswerCounts,
  answerKey,
  InsightsRepository,
  type InsightsCounts,
} from '../insights/insights.repository';
import { ResponseRepository, type NewResponse } from '../response.repository';
import { storedJson } from '../submission/response.writer';
import { ResponseTallyRepository } from './response-tally.repository';

// The tallies are kept by triggers, whichever statement changes `responses`:
// after inserts, partial saves that complete, deletes through the repository
// and plain SQL, concurrent writers on several connections, what they say
// must be exactly what counting every row says.

const formId = 'form-tallied';
const accountId = 'account-tallied';
const questions = ['q1', 'q2', 'q3'];

interface Spec {
  id: string;
  type: ResponseType;
  answered: string[];
  platform?: string;
  seconds?: number;
  /** Stored answers as given, instead of a text answer to each of `answered`. */
  answers?: object[];
}

function newResponse(
  { id, type, answered, platform, seconds = 30, answers: given }: Spec,
  form = formId,
): NewResponse {
  const landedAt = new Date(Date.parse('2026-05-01T10:00:00Z'));
  const submittedAt = new Date(landedAt.getTime() + seconds * 1000);
  const times = { landed_at: landedAt.toISOString(), submitted_at: submittedAt.toISOString() };
  const answers =
    given ??
    answered.map((field) => ({
      field: { id: field, ref: `${field}-ref` },
      type: 'text',
      text: id,
    }));
  const built: NewResponse['built'] = {
    token: id,
    responseType: type,
    landedAt,
    submittedAt,
    resource: { token: id, response_id: id, ...times, metadata: platform ? { platform } : {}, answers },
    event: {
      event_id: randomUUID(),
      event_type: 'form_response',
      form_response: { form_id: form, token: id, ...times },
      account_id: accountId,
    },
    searchText: id,
    answeredFields: answered.flatMap((field) => [field, `${field}-ref`]),
  };
  return { formId: form, accountId, requestHash: id, built, json: storedJson(built) };
}

// What the tallies must say, counted over every row as before they existed.
async function countedOverRows(db: ResponsesPrismaClient, form: string) {
  const types = await db.$queryRaw<Array<{ key: string; count: number }>>`
    SELECT response_type AS key, count(*)::int AS count FROM responses WHERE form_id = ${form} GROUP BY 1`;
  const platforms = await db.$queryRaw<InsightsCounts['platforms']>`
    SELECT coalesce(payload->'metadata'->>'platform', 'other') AS platform,
           count(*)::int AS landings,
           count(*) FILTER (WHERE response_type = 'completed')::int AS completed,
           (avg(extract(epoch FROM submitted_at - landed_at)) FILTER (WHERE response_type = 'completed'))::float8 AS "averageSeconds"
      FROM responses WHERE form_id = ${form} GROUP BY 1`;
  const answered = await db.$queryRaw<InsightsCounts['answered']>`
    SELECT answer->'field'->>'id' AS "fieldId", count(*)::int AS count
      FROM responses, json_array_elements(payload->'answers') AS answer
     WHERE form_id = ${form} GROUP BY 1`;
  const leftAfter = await db.$queryRaw<InsightsCounts['leftAfter']>`
    SELECT (payload->'answers'->-1)->'field'->>'id' AS "fieldId", count(*)::int AS count
      FROM responses
     WHERE form_id = ${form} AND response_type <> 'completed' AND json_array_length(payload->'answers') > 0
     GROUP BY 1`;
  return { types, insights: { platforms, answered, leftAfter } };
}

const byKey = <T extends object>(rows: T[], key: keyof T) =>
  [...rows].sort((a, b) => String(a[key]).localeCompare(String(b[key])));

describe('response tallies against PostgreSQL', () => {
  let database: ScratchDatabase<ResponsesPrismaClient>;
  let responses: ResponseRepository;
  let tallies: ResponseTallyRepository;
  let insights: InsightsRepository;

  beforeAll(async () => {
    database = await scratchResponsesDatabase();
    tallies = new ResponseTallyRepository(database.client);
    insights = new InsightsRepository(database.client);
    responses = new ResponseRepository(database.client, tallies, { RESPONSES_FILTERED_COUNT_LIMIT: 1000 });
  });

  afterAll(() => database?.dispose());

  async function expectTalliesToMatchRows(form = formId) {
    const counted = await countedOverRows(database.client, form);
    for (const type of ['completed', 'partial', 'started'] as const) {
      const expected = counted.types.find((row) => row.key === type)?.count ?? 0;
      expect({ type, count: await tallies.responsesOfTypes(form, [type]) }).toEqual({
        type,
        count: expected,
      });
    }
    const read = await insights.counts(form);
    expect(byKey(read.answered, 'fieldId')).toEqual(byKey(counted.insights.answered, 'fieldId'));
    expect(byKey(read.leftAfter, 'fieldId')).toEqual(byKey(counted.insights.leftAfter, 'fieldId'));
    const platforms = (rows: InsightsCounts['platforms']) =>
      byKey(rows, 'platform').map((row) => ({
        ...row,
        averageSeconds: row.averageSeconds === null ? null : Math.round(row.averageSeconds * 1000) / 1000,
      }));
    expect(platforms(read.platforms)).toEqual(platforms(counted.insights.platforms));
  }

  it('counts inserts of every type, with their platforms, answers and times', async () => {
    const specs: Spec[] = [
      { id: 't1', type: 'completed', answered: ['q1', 'q2', 'q3'], platform: 'desktop', seconds: 10 },
      { id: 't2', type: 'completed', answered: ['q1'], platform: 'mobile', seconds: 25 },
      { id: 't3', type: 'completed', answered: ['q2', 'q3'], seconds: 7 },
      { id: 't4', type: 'partial', answered: ['q1', 'q2'], platform: 'desktop' },
      { id: 't5', type: 'started', answered: [] },
    ];
    for (const spec of specs) expect(await responses.insertWithEvent(newResponse(spec))).not.toBeNull();
    await expectTalliesToMatchRows();
    expect(await responses.count(formId)).toBe(3);
    expect((await insights.counts(formId)).answered).toEqual(
      expect.arrayContaining(questions.map((fieldId) => ({ fieldId, count: expect.any(Number) }))),
    );
  });

  it('moves a partial response to completed when its final submission updates it', async () => {
    const partial = newResponse({ id: 't6', type: 'partial', answered: ['q1'], platform: 'tablet' });
    await responses.insertWithEvent(partial);
    await expectTalliesToMatchRows();
    const done = newResponse({
      id: 't6',
      type: 'completed',
      answered: ['q1', 'q3'],
      platform: 'tablet',
      seconds: 90,
    });
    expect(await responses.updateInProgress('t6', done)).not.toBeNull();
    await expectTalliesToMatchRows();
    expect(await responses.count(formId)).toBe(4);
  });

  it('takes deleted responses away, through the repository and through plain SQL', async () => {
    expect(await responses.delete(accountId, formId, ['t1', 't5'], noBytes)).toBe(2);
    await expectTalliesToMatchRows();
    await database.client
      .$executeRaw`DELETE FROM responses WHERE form_id = ${formId} AND response_type = 'partial'`;
    await expectTalliesToMatchRows();
    // An update that changes nothing tallied leaves the tallies as they are.
    await database.client.$executeRaw`UPDATE responses SET request_id = 'again' WHERE form_id = ${formId}`;
    await expectTalliesToMatchRows();
  });

  it('stays exact under concurrent writers on several connections', async () => {
    const form = 'form-concurrent';
    const specs = Array.from({ length: 60 }, (_, index): Spec => ({
      id: `c${index}`,
      type: index % 4 === 0 ? 'partial' : 'completed',
      answered: questions.slice(0, 1 + (index % 3)),
      platform: ['desktop', 'mobile', 'tablet'][index % 3],
      seconds: index,
    }));
    await Promise.all(specs.map((spec) => responses.insertWithEvent(newResponse(spec, form))));
    await Promise.all([
      responses.delete(accountId, form, ['c1', 'c2', 'c3'], noBytes),
      database.client.$executeRaw`DELETE FROM responses WHERE form_id = ${form} AND id IN ('c10', 'c11')`,
    ]);
    await expectTalliesToMatchRows(form);
    expect(await tallies.responsesOfTypes(form, ['completed', 'partial'])).toBe(55);
  });

  it('fills answered_fields from the payload when a write leaves them out, and on every update', async () => {
    const given = newResponse({ id: 'a1', type: 'partial', answered: ['q2'] });
    // Written by hand without the column, as an operator's or a seed's insert would.
    await database.client.$executeRaw`
      INSERT INTO responses (id, form_id, account_id, landed_at, submitted_at, payload, search_text, response_type)
      VALUES ('a1', ${formId}, ${accountId}, now(), now(), ${given.json.resource}::json, '', 'partial')`;
    const row = async () =>
      (
        await database.client.$queryRaw<Array<{ fields: string[] }>>`
          SELECT answered_fields AS fields FROM responses WHERE id = 'a1'`
      )[0].fields.sort();
    expect(await row()).toEqual(['q2', 'q2-ref']);
    // An update of the payload reads them again, whatever the update says of them.
    const done = newResponse({ id: 'a1', type: 'completed', answered: ['q2', 'q3'] });
    await responses.updateInProgress('a1', { ...done, built: { ...done.built, answeredFields: ['stale'] } });
    expect(await row()).toEqual(['q2', 'q2-ref', 'q3', 'q3-ref']);
    await expectTalliesToMatchRows();
  });

  it('lists by answered field (id or ref) and counts a filtered listing up to its bound', async () => {
    const form = 'form-filtered';
    for (let index = 0; index < 8; index++) {
      await responses.insertWithEvent(
        newResponse({ id: `f${index}`, type: 'completed', answered: index < 5 ? ['q1'] : ['q2'] }, form),
      );
    }
    const sort = { field: 'submitted_at', order: 'desc' } as const;
    const bounded = new ResponseRepository(database.client, tallies, { RESPONSES_FILTERED_COUNT_LIMIT: 3 });
    const byRef = await bounded.list(accountId, form, { sort, pageSize: 10, answeredFields: ['q2-ref'] });
    expect({ total: byRef.total, ids: byRef.rows.map((row) => row.id).sort() }).toEqual({
      total: 3,
      ids: ['f5', 'f6', 'f7'],
    });
    const byId = await bounded.list(accountId, form, { sort, pageSize: 2, answeredFields: ['q1'] });
    // Five match: the total says the bound, the page holds what it asked for.
    expect({ total: byId.total, count: byId.rows.length }).toEqual({ total: 3, count: 2 });
    // Unfiltered, the total is the tally's, exact beyond the bound.
    const all = await bounded.list(accountId, form, { sort, pageSize: 2, responseTypes: ['completed'] });
    expect({ total: all.total, count: all.rows.length }).toEqual({ total: 8, count: 2 });
  });
});

// Stored answers, as the submission's checks write them.
const stored = {
  plan: (ids: string[], other?: string) => ({
    field: { id: 'plan', ref: 'plan', type: 'multiple_choice' },
    type: 'choices',
    choices: { ids, refs: ids, labels: ids, ...(other !== undefined ? { other } : {}) },
  }),
  size: (choice: { id: string } | { other: string }) => ({
    field: { id: 'size', ref: 'size', type: 'dropdown' },
    type: 'choice',
    choice: 'id' in choice ? { id: choice.id, ref: choice.id, label: choice.id } : choice,
  }),
  again: (value: boolean) => ({
    field: { id: 'again', ref: 'again', type: 'yes_no' },
    type: 'boolean',
    boolean: value,
  }),
  stars: (value: number) => ({
    field: { id: 'stars', ref: 'stars', type: 'rating' },
    type: 'number',
    number: value,
  }),
  age: (value: number) => ({
    field: { id: 'age', ref: 'age', type: 'number' },
    type: 'number',
    number: value,
  }),
  name: (text: string) => ({ field: { id: 'name', ref: 'name', type: 'short_text' }, type: 'text', text }),
};

// The distribution Insights reads: of completed responses only, exact after
// every insert, completion of a partial response and delete, and bounded in
// what one response's payload may add.
describe('answer tallies against PostgreSQL', () => {
  const form = 'form-answers';
  let database: ScratchDatabase<ResponsesPrismaClient>;
  let responses: ResponseRepository;
  let insights: InsightsRepository;

  beforeAll(async () => {
    database = await scratchResponsesDatabase();
    insights = new InsightsRepository(database.client);
    responses = new ResponseRepository(database.client, new ResponseTallyRepository(database.client), {
      RESPONSES_FILTERED_COUNT_LIMIT: 1000,
    });
  });

  afterAll(() => database?.dispose());

  // The counts as plain objects, keys in order, averages to 4 decimals.
  async function read(): Promise<{
    responses: number;
    answered: Record<string, [number, number]>;
    given: Record<string, number>;
  }> {
    const counts: AnswerCounts = await insights.answerCounts(form);
    const sorted = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => a.localeCompare(b));
    return {
      responses: counts.responses,
      answered: Object.fromEntries(
        sorted(counts.answered).map(([key, { count, average }]) => [
          key,
          [count, Math.round(average * 10_000) / 10_000],
        ]),
      ),
      given: Object.fromEntries(
        sorted(counts.given).map(([key, count]) => [key.replace('\u001f', ' = '), count]),
      ),
    };
  }

  const insert = async (spec: Omit<Spec, 'answered'>) =>
    expect(await responses.insertWithEvent(newResponse({ ...spec, answered: [] }, form))).not.toBeNull();

  it('counts the answers of completed responses, not of unfinished ones', async () => {
    await insert({
      id: 'd1',
      type: 'completed',
      answers: [
        stored.name('Ada'),
        stored.plan(['free', 'team'], 'barter'),
        stored.size({ id: 's' }),
        stored.again(true),
        stored.stars(4),
        stored.age(1.5),
      ],
    });
    await insert({
      id: 'd2',
      type: 'completed',
      answers: [stored.plan(['free']), stored.again(false), stored.stars(2), stored.age(2.25)],
    });
    await insert({ id: 'd3', type: 'partial', answers: [stored.plan(['team']), stored.stars(5)] });
    expect(await read()).toEqual({
      responses: 2,
      answered: { age: [2, 1.875], again: [2, 0], plan: [2, 0], size: [1, 0], stars: [2, 3] },
      given: {
        'again = false': 1,
        'again = true': 1,
        'plan = choice:free': 2,
        'plan = choice:team': 1,
        'plan = other': 1,
        'size = choice:s': 1,
        'stars = 2': 1,
        'stars = 4': 1,
      },
    });
    expect(answerKey('plan', { choiceId: 'free' })).toBe('plan\u001fchoice:free');
  });

  it('adds a partial response once its final submission completes it', async () => {
    const done = newResponse(
      {
        id: 'd3',
        type: 'completed',
        answered: [],
        answers: [stored.plan(['team']), stored.size({ other: 'XL' }), stored.stars(5), stored.age(-10)],
      },
      form,
    );
    expect(await responses.updateInProgress('d3', done)).not.toBeNull();
    expect(await read()).toEqual({
      responses: 3,
      answered: { age: [3, -2.0833], again: [2, 0], plan: [3, 0], size: [2, 0], stars: [3, 3.6667] },
      given: {
        'again = false': 1,
        'again = true': 1,
        'plan = choice:free': 2,
        'plan = choice:team': 2,
        'plan = other': 1,
        'size = choice:s': 1,
        'size = other': 1,
        'stars = 2': 1,
        'stars = 4': 1,
        'stars = 5': 1,
      },
    });
  });

  it('takes deleted responses away, through the repository and through plain SQL', async () => {
    expect(await responses.delete(accountId, form, ['d1'], noBytes)).toBe(1);
    await database.client.$executeRaw`DELETE FROM responses WHERE id = 'd2'`;
    expect(await read()).toEqual({
      responses: 1,
      answered: { age: [1, -10], plan: [1, 0], size: [1, 0], stars: [1, 5] },
      given: { 'plan = choice:team': 1, 'size = other': 1, 'stars = 5': 1 },
    });
  });

  it('bounds what one response adds, and takes away exactly that', async () => {
    const before = await read();
    const many = Array.from({ length: 1_200 }, (_, index) => `c${String(index).padStart(4, '0')}`);
    await insert({
      id: 'd4',
      type: 'completed',
      // A choice id beyond any the form allows is not counted; of 1,200
      // choices picked, the first 999 are (with the question's own row, 1,000).
      answers: [stored.size({ id: 'x'.repeat(700) }), stored.plan(many), stored.stars(1)],
    });
    const bounded = await read();
    expect(bounded.answered.size).toEqual([2, 0]);
    expect(bounded.given).not.toHaveProperty(`size = choice:${'x'.repeat(700)}`);
    expect(bounded.answered.plan).toEqual([2, 0]);
    const picked = Object.keys(bounded.given).filter((key) => key.startsWith('plan = choice:c'));
    expect(picked).toEqual(many.slice(0, 998).map((id) => `plan = choice:${id}`));
    // The rating comes after the cap: not counted.
    expect(bounded.answered.stars).toEqual([1, 5]);
    await database.client.$executeRaw`DELETE FROM responses WHERE id = 'd4'`;
    expect(await read()).toEqual(before);
  });
});

// Nothing here holds uploads: no bytes to remove.
const noBytes = () => Promise.resolve();
