import { Inject, Injectable } from '@nestjs/common';
import pg from 'pg';
import { type ResponseQuery, responseTypes, Subjects } from '@formline/contracts';
import {
  ResponsesPrismaClient,
  type ResponsesDb,
  responsesKeyedPool,
  responsesSqlPool,
  StatementBatch,
} from '@formline/db';
import { inputLimits } from '@formline/input';
import { keptWithinBytesSql } from './kept-within-bytes.sql';
import { insertResponsesWithEventsSql } from './response-insert.statements';
import { OutboxRepository, type OutboxRow } from './outbox/outbox.repository';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import type { BuiltResponse } from './submission/response.builder';
import { ResponseTallyRepository } from './tallies/response-tally.repository';
import { type StoredUpload, UploadRepository } from './uploads/upload.repository';

export interface NewResponse {
  formId: string;
  accountId: string;
  built: BuiltResponse;
  idempotencyKey?: string;
  requestHash: string;
  /** The request id of the submission, handed on with its event (X-Request-Id). */
  requestId?: string;
  /** sha256 of the respondent's progress key, when the submission names one. */
  progressKey?: string;
  /** The uploads its file_url answers name: the response holds them from now on. */
  fileNames?: readonly string[];
  /** The response and its event as JSON, as measured for their size (storedJson). */
  json: { resource: string; event: string };
}

// A response in progress (or completed) found by its progress key.
export interface ProgressRow {
  id: string;
  responseType: string;
  landedAt: Date;
  requestHash: string | null;
  payload: Record<string, unknown>;
}

export interface StoredResponse {
  payload: Record<string, unknown>;
  requestHash: string | null;
}

// A response and its event on their way into one shared statement.
interface PendingInsert {
  response: NewResponse;
  event: OutboxRow;
}

// Per row of a shared insert: written, left out (its key was taken), or the
// failure of its own statement.
type InsertOutcome = 'written' | 'key-taken' | { failed: unknown };

// At most this many characters of responses, events and search texts in one
// insert: a statement of many large responses would hold them all in memory.
const insertMaxChars = 4 * 1024 * 1024;

type Row = { id: string; responseType: string; submittedAt: Date; landedAt: Date; payload: unknown };

// The region's responses. A response and the event announcing it are written
// in one transaction (the outbox), so neither exists without the other.
@Injectable()
export class ResponseRepository {
  // Concurrent submissions share one insert statement (group commit).
  private readonly inserts = new StatementBatch<PendingInsert, InsertOutcome>(
    (rows) => this.insertShared(rows),
    (row) => row.response.built.token,
    {
      maxRows: 100,
      maxWeight: insertMaxChars,
      weightOf: ({ response }) =>
        response.json.resource.length + response.json.event.length + response.built.searchText.length,
    },
  );

  constructor(
    private readonly db: ResponsesPrismaClient,
    private readonly tallies: ResponseTallyRepository,
    @Inject(RESPONSES_CONFIG)
    private readonly config: Pick<ResponsesConfig, 'RESPONSES_FILTERED_COUNT_LIMIT'>,
  ) {}

  // The event written with the response (for the relay to publish at once),
  // or null when the idempotency or progress key was taken meanwhile (a
  // concurrent retry: the caller looks again). Submissions that arrive
  // together share one statement (insertResponsesWithEventsSql); a response
  // with files is written in a transaction of its own that marks its uploads.
  async insertWithEvent(response: NewResponse): Promise<OutboxRow | null> {
    const event = outboxRowOf(response);
    const fileNames = response.fileNames ?? [];
    if (fileNames.length > 0) return this.insertWithUploads(response, event, fileNames);
    const outcome = await this.inserts.submit({ response, event });
    if (typeof outcome === 'object') throw outcome.failed;
    return outcome === 'written' ? event : null;
  }

  // One statement for the rows that came together. Should PostgreSQL refuse
  // it for what a row holds, each row is tried again alone, so that such a row
  // fails only its own submission; the refused statement wrote nothing. Any
  // other failure (the connection lost, a timeout) fails them all: the
  // statement may have committed, and a row written again under a new token
  // would be a response stored twice.
  private async insertShared(rows: PendingInsert[]): Promise<InsertOutcome[]> {
    try {
      return await this.insertRows(rows);
    } catch (error) {
      if (rows.length === 1 || !isRefusalOfData(error)) return rows.map(() => ({ failed: error }));
      return Promise.all(
        rows.map((row) =>
          this.insertRows([row]).then(
            ([outcome]) => outcome,
            (failed: unknown) => ({ failed }),
          ),
        ),
      );
    }
  }

  private async insertRows(rows: PendingInsert[]): Promise<InsertOutcome[]> {
    // Plain SQL on the keyed statements' pool: Prisma's runtime around this
    // one statement cost more CPU than the statement.
    const { rows: written } = await responsesKeyedPool(this.db).query<{ id: string }>({
      name: 'responses-insert-with-events',
      text: insertResponsesWithEventsSql,
      values: insertColumns(rows),
    });
    const ids = new Set(written.map((row) => row.id));
    return rows.map((row) => (ids.has(row.response.built.token) ? 'written' : 'key-taken'));
  }

  // A response with files: the same statement, for its row alone, in a
  // transaction that also marks the uploads it holds.
  private async insertWithUploads(
    response: NewResponse,
    event: OutboxRow,
    fileNames: readonly string[],
  ): Promise<OutboxRow | null> {
    return this.db.$transaction(async (tx) => {
      const written = await tx.$queryRawUnsafe<{ id: string }[]>(
        insertResponsesWithEventsSql,
        ...insertColumns([{ response, event }]),
      );
      if (written.length === 0) return null;
      await UploadRepository.attach(tx, response.formId, response.built.token, fileNames);
      return event;
    });
  }

  findByProgressKey(formId: string, progressKey: string): Promise<ProgressRow | null> {
    return this.db.response.findUnique({
      where: { formId_progressKey: { formId, progressKey } },
      select: { id: true, responseType: true, landedAt: true, requestHash: true, payload: true },
    }) as Promise<ProgressRow | null>;
  }

  // Writes a new state of the response in progress `id` (a later partial save,
  // or the final submission completing it) with its event, in one
  // transaction, answering the event written. Null when the response was
  // completed meanwhile: then nothing is written, and no event exists for the
  // write that lost.
  async updateInProgress(id: string, response: NewResponse): Promise<OutboxRow | null> {
    const { built } = response;
    const event = outboxRowOf(response);
    try {
      return await this.db.$transaction(async (tx) => {
        const { count } = await tx.response.updateMany({
          where: { id, formId: response.formId, responseType: { not: 'completed' } },
          data: {
            responseType: built.responseType,
            landedAt: built.landedAt,
            submittedAt: built.submittedAt,
            payload: asJson(built.resource),
            searchText: built.searchText,
            answeredFields: built.answeredFields,
            requestHash: response.requestHash,
            requestId: response.requestId ?? null,
            ...(response.idempotencyKey ? { idempotencyKey: response.idempotencyKey } : {}),
          },
        });
        if (count === 0) return null;
        await UploadRepository.attach(tx, response.formId, id, response.fileNames ?? []);
        await tx.$executeRaw`INSERT INTO outbox_events (id, subject, payload, request_id, response_id, created_at)
          VALUES (${event.id}, ${event.subject}, ${event.payload}::json, ${event.requestId}, ${id},
                  now() AT TIME ZONE 'UTC')`;
        return event;
      });
    } catch (error) {
      // Another response already holds this Idempotency-Key: the caller replays it.
      if (isUniqueViolation(error) && response.idempotencyKey) return null;
      throw error;
    }
  }

  async findByIdempotencyKey(formId: string, idempotencyKey: string): Promise<StoredResponse | undefined> {
    const row = await this.db.response.findUnique({
      where: { formId_idempotencyKey: { formId, idempotencyKey } },
      select: { payload: true, requestHash: true },
    });
    return row
      ? { payload: row.payload as Record<string, unknown>, requestHash: row.requestHash }
      : undefined;
  }

  async list(
    accountId: string,
    formId: string,
    query: ResponseQuery,
  ): Promise<{ total: number; rows: Row[] }> {
    const column = sortColumn(query);
    const cursor = query.after ?? query.before;
    const anchor = cursor
      ? await this.db.response.findFirst({
          where: { id: cursor, formId, accountId },
          select: { id: true, submittedAt: true, landedAt: true },
        })
      : undefined;
    // A token that names no response of this form pages from nowhere: an
    // empty page, never the first page again (a client would loop on it).
    if (cursor && !anchor) return { total: 0, rows: [] };
    // `after` and `before` are exclusive positions on the column the page is sorted by.
    const newer = anchor && query.after ? cursorFilter(column, anchor, 'gt') : undefined;
    const older = anchor && query.before ? cursorFilter(column, anchor, 'lt') : undefined;
    const where = {
      formId,
      accountId,
      ...(query.responseTypes ? { responseType: { in: query.responseTypes } } : {}),
      // The submitted_at column holds a partial or started response's last
      // save: those filter on it, as Typeform's do, never on landed_at.
      ...(query.since || query.until
        ? {
            submittedAt: {
              ...(query.since ? { gte: new Date(query.since) } : {}),
              ...(query.until ? { lte: new Date(query.until) } : {}),
            },
          }
        : {}),
      ...(query.includedResponseIds || query.excludedResponseIds
        ? {
            id: {
              ...(query.includedResponseIds ? { in: query.includedResponseIds } : {}),
              ...(query.excludedResponseIds ? { notIn: query.excludedResponseIds } : {}),
            },
          }
        : {}),
      ...(query.query ? { searchText: { contains: query.query.toLowerCase() } } : {}),
      AND: [newer ?? {}, older ?? {}, answeredFilter(query.answeredFields)],
    };
    // A page is the one nearest its cursor: read from the cursor outwards
    // (upwards for `after`, downwards for `before`), then return the page in
    // the requested order.
    const direction = readDirection(query);
    const [total, rows] = await Promise.all([
      // Never a count of every matching row: the form's tally when nothing
      // but the response types is asked for, else the matches up to a bound.
      isFiltered(query)
        ? this.db.response.count({ where, take: this.config.RESPONSES_FILTERED_COUNT_LIMIT })
        : this.tallies.responsesOfTypes(formId, query.responseTypes ?? responseTypes),
      this.pageWithin(accountId, formId, {
        where,
        orderBy: [{ [column]: direction }, { id: direction }],
        take: query.pageSize,
      }),
    ]);
    return { total, rows: direction === query.sort.order ? rows : rows.reverse() };
  }

  // A page's rows in reading order, up to the page's bytes: the ids that the
  // listing's filters find (no payloads), then those rows as they are now,
  // cut by rowsWithin. A page whose every row was deleted between the two
  // reads is read again (an empty page ends a client's paging).
  private async pageWithin(
    accountId: string,
    formId: string,
    find: {
      where: ResponsesDb.Prisma.ResponseWhereInput;
      orderBy: ResponsesDb.Prisma.ResponseOrderByWithRelationInput[];
      take: number;
    },
  ): Promise<Row[]> {
    for (let tries = 1; ; tries++) {
      const found = await this.db.response.findMany({ ...find, select: { id: true } });
      const ids = found.map((row) => row.id);
      const rows = await this.rowsWithin(accountId, formId, ids, inputLimits.pageBytes);
      if (rows.length > 0 || ids.length === 0 || tries === 3) return rows;
    }
  }

  // The rows of these ids, in their order, up to `budget` bytes of stored
  // JSON: always the first, and the row that crosses the budget (the service
  // measures the listed JSON exactly and cuts there). PostgreSQL makes the
  // cut, so a page of a thousand responses near their stored bound (hundreds
  // of megabytes) is never read whole into the process only to be cut. A
  // row deleted since its id was read is left out; one saved since shows
  // what it holds now, times and type with its payload.
  private async rowsWithin(
    accountId: string,
    formId: string,
    ids: readonly string[],
    budget: number,
  ): Promise<Row[]> {
    if (ids.length === 0) return [];
    const { rows } = await responsesSqlPool(this.db).query<Row>({
      name: 'listing-rows-within',
      text: keptWithinBytesSql({
        select: 'id, "responseType", "landedAt", "submittedAt", payload',
        rows: `SELECT r.id, r.response_type AS "responseType",
                      r.landed_at AT TIME ZONE 'UTC' AS "landedAt",
                      r.submitted_at AT TIME ZONE 'UTC' AS "submittedAt", r.payload, page.at
                 FROM unnest($1::text[]) WITH ORDINALITY AS page(id, at)
                 JOIN responses r ON r.id = page.id AND r.form_id = $2 AND r.account_id = $3`,
        order: 'at',
        budget: '$4',
      }),
      values: [ids, formId, accountId, budget],
    });
    return rows;
  }

  // The named responses of the form (up to 1000), and at once the uploads
  // they hold with their bytes and the outbox events that carry them, in one
  // transaction that also writes the event announcing the deletion (the
  // webhooks service drops their deliveries on it): only ids of this form and
  // account are looked at, so no other response's files are ever reached.
  async delete(
    accountId: string,
    formId: string,
    ids: readonly string[],
    removeBytes: (uploads: StoredUpload[]) => Promise<void>,
  ): Promise<number> {
    return this.db.$transaction(
      async (tx) => {
        // The responses locked first, then their uploads: the order a save of
        // a response in progress takes them in, so the two never deadlock.
        const found = await tx.$queryRaw<Array<{ id: string }>>`
          SELECT id FROM responses
           WHERE form_id = ${formId} AND account_id = ${accountId} AND id = ANY(${[...ids]}::text[])
           ORDER BY id FOR UPDATE`;
        const held = found.map((row) => row.id);
        await UploadRepository.removeOfResponses(tx, held, removeBytes);
        await OutboxRepository.recordDeletion(tx, { accountId, formId, responseIds: held });
        const { count } = await tx.response.deleteMany({ where: { formId, accountId, id: { in: held } } });
        return count;
      },
      { timeout: 60_000 },
    );
  }

  // The form's responses in this region (the respondent page's welcome screen).
  // Completed ones only: progress saved before the final submit is not a submission.
  count(formId: string): Promise<number> {
    return this.tallies.responsesOfTypes(formId, ['completed']);
  }
}

export type SortColumn = 'submittedAt' | 'landedAt';

// The order a page is read in: from its cursor outwards (upwards for
// `after`, downwards for `before`), else in the requested order. A page cut
// at its bytes keeps the rows read first, those nearest the cursor, so the
// next page (from the last token in reading order) skips none.
export function readDirection(query: Pick<ResponseQuery, 'after' | 'before' | 'sort'>): 'asc' | 'desc' {
  return query.after ? 'asc' : query.before ? 'desc' : query.sort.order;
}

export function sortColumn(query: Pick<ResponseQuery, 'sort'>): SortColumn {
  return query.sort.field === 'landed_at' ? 'landedAt' : 'submittedAt';
}

// Rows strictly past the anchor on the sorted column, ties broken by id as
// the ORDER BY breaks them, so that paging never skips nor repeats a row. The
// plain bound on the column (implied by the OR) is what lets PostgreSQL start
// the index scan at the anchor: without it, a page from the middle of a
// million responses walked every row before the anchor.
export function cursorFilter(
  column: SortColumn,
  anchor: { id: string } & Record<SortColumn, Date>,
  direction: 'gt' | 'lt',
) {
  return {
    [column]: { [direction === 'gt' ? 'gte' : 'lte']: anchor[column] },
    OR: [
      { [column]: { [direction]: anchor[column] } },
      { [column]: anchor[column], id: { [direction]: anchor.id } },
    ],
  };
}

// `answered_fields`: responses holding an answer to at least one of these
// questions (by id or ref), from the column the database fills with the ids
// and refs a response answers (an index serves it).
export function answeredFilter(fields: readonly string[] | undefined): ResponsesDb.Prisma.ResponseWhereInput {
  if (!fields || fields.length === 0) return {};
  return { answeredFields: { hasSome: [...fields] } };
}

// Whether a listing asks for more than the form's responses of some types:
// then its total is counted from the rows (up to a bound), not read from the
// tallies. Named by what does not filter, so that a filter added to the query
// later is counted from the rows, never answered from the tallies by mistake.
const notFilters: ReadonlySet<string> = new Set<keyof ResponseQuery>([
  'pageSize',
  'sort',
  'responseTypes',
  'fields',
]);

export function isFiltered(query: ResponseQuery): boolean {
  return Object.entries(query).some(
    ([key, value]) =>
      !notFilters.has(key) &&
      value !== undefined &&
      // An empty answered_fields filters nothing (answeredFilter).
      !(key === 'answeredFields' && Array.isArray(value) && value.length === 0),
  );
}

// The event row a write stores, as the relay publishes it: the payload text
// is stored as it is (a json column keeps its text), so both are the same bytes.
// The shared insert's parameters: one array a column, row i of each for row i.
function insertColumns(rows: readonly PendingInsert[]): unknown[][] {
  const column = <T>(of: (row: PendingInsert) => T) => rows.map(of);
  return [
    column((r) => r.response.built.token),
    column((r) => r.response.formId),
    column((r) => r.response.accountId),
    // timestamp columns hold UTC: an ISO string's zone is dropped as it is cast.
    column((r) => r.response.built.landedAt.toISOString()),
    column((r) => r.response.built.submittedAt.toISOString()),
    column((r) => r.response.json.resource),
    column((r) => r.response.built.searchText),
    column((r) => r.response.idempotencyKey ?? null),
    column((r) => r.response.requestHash),
    column((r) => r.event.requestId),
    column((r) => r.event.id),
    column((r) => r.event.subject),
    column((r) => r.event.payload),
    column((r) => r.response.built.responseType),
    column((r) => r.response.progressKey ?? null),
    // Given here, the database need not read them out of the payload again.
    column((r) => JSON.stringify(r.response.built.answeredFields)),
  ];
}

function outboxRowOf(response: NewResponse): OutboxRow {
  return {
    id: response.built.event.event_id,
    subject: Subjects.responsesResponseSubmitted,
    payload: response.json.event,
    requestId: response.requestId ?? null,
  };
}

// PostgreSQL's answer that a value is wrong (SQLSTATE class 22, data
// exception) or breaks a constraint (class 23): given about what a row holds,
// after which the statement wrote nothing.
function isRefusalOfData(error: unknown): boolean {
  return error instanceof pg.DatabaseError && /^2[23]/.test(error.code ?? '');
}

// PostgreSQL's 23505: from pg itself, as Prisma's P2002, or as a raw
// statement's P2010 whose driver error it is.
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, meta } = error as {
    code?: string;
    meta?: { driverAdapterError?: { cause?: { originalCode?: string } } };
  };
  return (
    code === '23505' ||
    code === 'P2002' ||
    (code === 'P2010' && meta?.driverAdapterError?.cause?.originalCode === '23505')
  );
}

function asJson(value: object): ResponsesDb.Prisma.InputJsonValue {
  return value;
}
