import { Injectable } from '@nestjs/common';
import { type ResponseQuery, Subjects } from '@formline/contracts';
import { ResponsesPrismaClient, type ResponsesDb } from '@formline/db';
import type { BuiltResponse } from './submission/response.builder';

export interface NewResponse {
  formId: string;
  accountId: string;
  built: BuiltResponse;
  idempotencyKey?: string;
  requestHash: string;
  /** The request id of the submission, handed on with its event (X-Request-Id). */
  requestId?: string;
}

export interface StoredResponse {
  payload: Record<string, unknown>;
  requestHash: string | null;
}

type Row = { id: string; submittedAt: Date; landedAt: Date; payload: unknown };

// The region's responses. A response and the event announcing it are written
// in one transaction (the outbox), so neither exists without the other.
@Injectable()
export class ResponseRepository {
  constructor(private readonly db: ResponsesPrismaClient) {}

  // False when the idempotency key was taken meanwhile (a concurrent retry).
  async insertWithEvent(response: NewResponse): Promise<boolean> {
    const { built } = response;
    try {
      await this.db.$transaction([
        this.db.response.create({
          data: {
            id: built.token,
            formId: response.formId,
            accountId: response.accountId,
            landedAt: built.landedAt,
            submittedAt: built.submittedAt,
            payload: asJson(built.resource),
            searchText: built.searchText,
            idempotencyKey: response.idempotencyKey,
            requestHash: response.requestHash,
            requestId: response.requestId ?? null,
          },
        }),
        this.db.outboxEvent.create({
          data: {
            id: built.event.event_id,
            subject: Subjects.responsesResponseSubmitted,
            payload: asJson(built.event),
            requestId: response.requestId ?? null,
          },
        }),
      ]);
      return true;
    } catch (error) {
      if (isUniqueViolation(error) && response.idempotencyKey) return false;
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
    // Paging towards newer responses reads upwards from the cursor, then
    // returns the page in the requested order.
    const readUpwards = Boolean(query.after) && query.sort.order === 'desc';
    const direction = readUpwards ? 'asc' : query.sort.order;
    const [total, rows] = await this.db.$transaction([
      this.db.response.count({ where }),
      this.db.response.findMany({
        where,
        select: { id: true, submittedAt: true, landedAt: true, payload: true },
        orderBy: [{ [column]: direction }, { id: direction }],
        take: query.pageSize,
      }),
    ]);
    return { total, rows: readUpwards ? rows.reverse() : rows };
  }

  async delete(accountId: string, formId: string, ids: readonly string[]): Promise<number> {
    const { count } = await this.db.response.deleteMany({
      where: { formId, accountId, id: { in: [...ids] } },
    });
    return count;
  }

  // The form's responses in this region (the respondent page's welcome screen).
  count(formId: string): Promise<number> {
    return this.db.response.count({ where: { formId } });
  }
}

export type SortColumn = 'submittedAt' | 'landedAt';

export function sortColumn(query: Pick<ResponseQuery, 'sort'>): SortColumn {
  return query.sort.field === 'landed_at' ? 'landedAt' : 'submittedAt';
}

// Rows strictly past the anchor on the sorted column, ties broken by id as
// the ORDER BY breaks them, so that paging never skips nor repeats a row.
export function cursorFilter(
  column: SortColumn,
  anchor: { id: string } & Record<SortColumn, Date>,
  direction: 'gt' | 'lt',
) {
  return {
    OR: [
      { [column]: { [direction]: anchor[column] } },
      { [column]: anchor[column], id: { [direction]: anchor.id } },
    ],
  };
}

// `answered_fields`: responses holding an answer to at least one of these
// questions (by id or ref). JSON containment on the stored answers.
export function answeredFilter(fields: readonly string[] | undefined) {
  if (!fields || fields.length === 0) return {};
  return {
    OR: fields.flatMap((field) => [
      { payload: { path: ['answers'], array_contains: [{ field: { id: field } }] } },
      { payload: { path: ['answers'], array_contains: [{ field: { ref: field } }] } },
    ]),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'P2002';
}

// Responses and events are plain JSON by construction.
function asJson(value: object): ResponsesDb.Prisma.InputJsonValue {
  return value;
}
