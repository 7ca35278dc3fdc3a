import type { ExportCursor, ResponseExportQuery } from '@formline/contracts';
import type { ResponsesPrismaClient } from '@formline/db';
import { emptyTables, scratchResponsesDatabase, type ScratchDatabase } from '@formline/testing';
import { ResponseExportRepository, type ExportRow } from './response-export.repository';

const formId = 'form-export';
const accountId = 'account-export';
const base = Date.parse('2026-03-01T12:00:00Z');
const at = (seconds: number) => new Date(base + seconds * 1000);
// A byte budget no page of the fixture reaches.
const noBound = 1024 * 1024;

// Seven responses of the form whose submission and landing orders differ,
// with ties on both columns and ids that order them otherwise again.
const fixture = [
  { id: 'r5', submitted: 10, landed: 5, type: 'completed', text: 'alpha 100%', fields: ['q1'] },
  { id: 'r7', submitted: 20, landed: 1, type: 'completed', text: 'beta', fields: ['q2'] },
  { id: 'r2', submitted: 20, landed: 9, type: 'partial', text: 'gamma_x', fields: ['q1', 'q2'] },
  { id: 'r1', submitted: 30, landed: 9, type: 'completed', text: 'delta', fields: [] },
  { id: 'r6', submitted: 40, landed: 3, type: 'started', text: 'gammaxx', fields: [] },
  { id: 'r3', submitted: 40, landed: 9, type: 'completed', text: 'alpha 1000', fields: ['q3'] },
  { id: 'r4', submitted: 50, landed: 2, type: 'completed', text: 'epsilon', fields: ['q2'] },
];

// ResponseExportRepository against PostgreSQL: an export reads a form's
// responses of the account a page at a time after a cursor on the sorted
// column and the id, with the listing's filters, and hands on each payload
// as its stored text.
// A timestamp as PostgreSQL writes it (UTC, no zone, no trailing zeros of
// its milliseconds).
function postgresText(date: Date): string {
  const [seconds, millis] = date.toISOString().replace('T', ' ').replace('Z', '').split('.');
  let fraction = millis;
  while (fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return fraction ? `${seconds}.${fraction}` : seconds;
}

describe('ResponseExportRepository against PostgreSQL', () => {
  let database: ScratchDatabase<ResponsesPrismaClient>;
  let exports: ResponseExportRepository;

  beforeAll(async () => {
    database = await scratchResponsesDatabase();
    exports = new ResponseExportRepository(database.client);
    await emptyTables(database.client);
    const row = (response: (typeof fixture)[number], owner = { formId, accountId }, id = response.id) => ({
      id,
      ...owner,
      responseType: response.type,
      landedAt: at(response.landed),
      submittedAt: at(response.submitted),
      // Keys out of alphabetical order: the text comes back as stored.
      payload: { token: id, landed_at: at(response.landed).toISOString(), answers: [] },
      searchText: response.text,
      answeredFields: response.fields,
    });
    await database.client.response.createMany({
      data: [
        ...fixture.map((response) => row(response)),
        // The same form's id under another account (a form moved between
        // accounts keeps nothing), and the account's response to another form.
        row(fixture[0], { formId, accountId: 'someone-else' }, 'other-account'),
        row(fixture[0], { formId: 'form-elsewhere', accountId }, 'other-form'),
      ],
    });
  });
  afterAll(() => database?.dispose());

  const query = (extra: Partial<ResponseExportQuery> = {}): ResponseExportQuery => ({
    sort: { field: 'submitted_at', order: 'desc' },
    ...extra,
  });
  const cursorOf = (row: ExportRow, sort: ResponseExportQuery['sort']) => ({
    at: sort.field === 'landed_at' ? row.landedAt : row.submittedAt,
    id: row.id,
  });
  const exportAll = async (
    exportQuery: ResponseExportQuery,
    pageSize: number,
    start?: Pick<ExportCursor, 'at' | 'id'>,
  ) => {
    const ids: string[] = [];
    let cursor = start;
    for (;;) {
      const { rows, read } = await exports.page(accountId, formId, exportQuery, cursor, pageSize, noBound);
      expect(rows).toHaveLength(read);
      expect(rows.length).toBeLessThanOrEqual(pageSize);
      ids.push(...rows.map((row) => row.id));
      if (rows.length < pageSize) return ids;
      cursor = cursorOf(rows.at(-1)!, exportQuery.sort);
    }
  };
  const expected = (sort: ResponseExportQuery['sort'], rows = fixture) => {
    const column = sort.field === 'landed_at' ? 'landed' : 'submitted';
    const sign = sort.order === 'asc' ? 1 : -1;
    return [...rows]
      .sort((x, y) => sign * (x[column] - y[column] || (x.id < y.id ? -1 : 1)))
      .map((row) => row.id);
  };

  describe.each([
    ['submitted_at', 'desc'],
    ['submitted_at', 'asc'],
    ['landed_at', 'desc'],
    ['landed_at', 'asc'],
  ] as const)('sort=%s,%s', (field, order) => {
    const sort = { field, order };
    it.each([1, 2, 3, 10])(
      "exports each of the account's responses to the form once, %i a page",
      async (size) => {
        expect(await exportAll(query({ sort }), size)).toEqual(expected(sort));
      },
    );
  });

  it('answers each row with its times and its payload as the stored text', async () => {
    const {
      rows: [row],
    } = await exports.page(accountId, formId, query(), undefined, 1, noBound);
    expect(row).toMatchObject({
      id: 'r4',
      responseType: 'completed',
      landedAt: postgresText(at(2)),
      submittedAt: postgresText(at(50)),
      payload: `{"token":"r4","landed_at":"${at(2).toISOString()}","answers":[]}`,
    });
  });

  it("resumes after a response of the form's in the account, and after nothing else", async () => {
    const sort = { field: 'landed_at', order: 'asc' } as const;
    const anchor = await exports.anchorOf(accountId, formId, query({ sort }), 'r1');
    expect(anchor).toEqual({ at: at(9).toISOString(), id: 'r1', owner: accountId });
    // After r1 on landed_at: only the 9s with larger ids.
    expect(await exportAll(query({ sort }), 2, anchor)).toEqual(['r2', 'r3'].filter((id) => id > 'r1'));
    expect(await exports.anchorOf('someone-else', formId, query({ sort }), 'r1')).toBeUndefined();
    expect(await exports.anchorOf(accountId, formId, query({ sort }), 'other-form')).toBeUndefined();
    expect(await exports.anchorOf(accountId, formId, query({ sort }), 'no-such-response')).toBeUndefined();
  });

  it('filters as the listing does: types, submission times (inclusive), ids, answered fields', async () => {
    const ids = (extra: Partial<ResponseExportQuery>) => exportAll(query(extra), 100);
    expect(await ids({ responseTypes: ['partial', 'started'] })).toEqual(['r6', 'r2']);
    expect(await ids({ since: at(20).toISOString(), until: at(40).toISOString() })).toEqual(
      expected(
        query().sort,
        fixture.filter((row) => row.submitted >= 20 && row.submitted <= 40),
      ),
    );
    expect(await ids({ includedResponseIds: ['r1', 'r2', 'other-form'] })).toEqual(['r1', 'r2']);
    // Newest first, ties by id descending, as the listing orders them.
    expect(await ids({ excludedResponseIds: ['r1', 'r2'] })).toEqual(['r4', 'r6', 'r3', 'r7', 'r5']);
    expect(await ids({ answeredFields: ['q2', 'q3'] })).toEqual(['r4', 'r3', 'r7', 'r2']);
    expect(await ids({ answeredFields: [] })).toHaveLength(fixture.length);
  });

  it("searches the answers' text case-insensitively, LIKE's wildcards taken as they are", async () => {
    const ids = (text: string) => exportAll(query({ query: text }), 100);
    expect(await ids('ALPHA')).toEqual(['r3', 'r5']);
    expect(await ids('100%')).toEqual(['r5']);
    expect(await ids('gamma_')).toEqual(['r2']);
    expect(await ids('%')).toEqual(['r5']);
  });

  it('stops reading at the byte budget in PostgreSQL: the crossing row is the last, the rest never leave it', async () => {
    // Six responses of about 100 kB of stored JSON each, of a text that
    // compresses to almost nothing: the budget is counted in the JSON's
    // bytes, not in what the table stores.
    const bigForm = 'form-export-big';
    const filler = 'x'.repeat(100_000);
    await database.client.response.createMany({
      data: Array.from({ length: 6 }, (_, i) => ({
        id: `big${i}`,
        formId: bigForm,
        accountId,
        responseType: 'completed',
        landedAt: at(i),
        submittedAt: at(i),
        payload: { token: `big${i}`, answers: [filler] },
        searchText: '',
        answeredFields: [],
      })),
    });
    const sort = { field: 'submitted_at', order: 'asc' } as const;
    const first = await exports.page(accountId, bigForm, query({ sort }), undefined, 1000, 250_000);
    // 0, 100 and 200 kB come before the first three rows; the third crosses 250 kB.
    expect(first.rows.map((row) => row.id)).toEqual(['big0', 'big1', 'big2']);
    expect(first.read).toBe(6);
    expect(first.rows[2].payload.length).toBeGreaterThan(100_000);
    // A budget smaller than one row still answers that row.
    const one = await exports.page(accountId, bigForm, query({ sort }), undefined, 1000, 10);
    expect(one.rows.map((row) => row.id)).toEqual(['big0']);
    // Paging on from the last row sent reaches every row once.
    const ids: string[] = [];
    let cursor: Pick<ExportCursor, 'at' | 'id'> | undefined;
    for (;;) {
      const page = await exports.page(accountId, bigForm, query({ sort }), cursor, 4, 150_000);
      ids.push(...page.rows.map((row) => row.id));
      if (page.rows.length === page.read && page.read < 4) break;
      cursor = cursorOf(page.rows.at(-1)!, sort);
    }
    expect(ids).toEqual(['big0', 'big1', 'big2', 'big3', 'big4', 'big5']);
  });
});
