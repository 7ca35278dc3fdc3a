import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { ExportCursor, ResponseExportQuery } from '@formline/contracts';
import { ResponsesPrismaClient, responsesSqlPool } from '@formline/db';
import { keptWithinBytesSql } from '../kept-within-bytes.sql';

export interface ExportRow {
  id: string;
  responseType: string;
  /** The column's text as PostgreSQL writes it, in UTC: `2026-11-27 07:00:05.123`. */
  landedAt: string;
  submittedAt: string;
  /** The stored response's JSON text, as the column keeps it. */
  payload: string;
}

export interface ExportPage {
  rows: ExportRow[];
  /** How many rows the page's limit let PostgreSQL read, before its byte budget cut them. */
  read: number;
}

// A form's responses read for an export, a page at a time: the listing's
// filters in plain SQL (Prisma's runtime around a thousand rows of JSON cost
// more than the statement), ordered by the sorted column and the id, and
// started after a cursor on both, so every page is one range scan of the
// (form_id, column, id) index whatever the form's size: never OFFSET, never
// a count. The timestamps come as PostgreSQL's text, never made Dates: a
// million of each to parse would cost more than the rest of the page's work,
// and the export needs them only as text.
@Injectable()
export class ResponseExportRepository {
  constructor(private readonly db: ResponsesPrismaClient) {}

  // The position of the response an export resumes after, when it is one of
  // the form's in this account.
  async anchorOf(
    accountId: string,
    formId: string,
    query: Pick<ResponseExportQuery, 'sort'>,
    token: string,
  ): Promise<ExportCursor | undefined> {
    const column = sortColumnOf(query);
    const { rows } = await responsesSqlPool(this.db).query<{ id: string; at: Date }>({
      text: `SELECT id, (${column} AT TIME ZONE 'UTC') AS at FROM responses
              WHERE id = $1 AND form_id = $2 AND account_id = $3`,
      values: [token, formId, accountId],
    });
    const row = rows[0];
    return row && { at: row.at.toISOString(), id: row.id, owner: accountId };
  }

  // The page's rows after `cursor`: at most `limit` of them, and no more
  // than `budget` bytes of stored JSON (always the first row, and the row
  // that crosses the budget: the service measures lines exactly and cuts
  // there). The cut is made by PostgreSQL, so a page of large responses is
  // never read whole into the process only to be cut: a thousand responses
  // near their stored bound are hundreds of megabytes. `read` is how many
  // rows the limit let PostgreSQL look at, the byte cut aside: fewer rows
  // than that means the page was cut, and the export goes on.
  async page(
    accountId: string,
    formId: string,
    query: ResponseExportQuery,
    cursor: Pick<ExportCursor, 'at' | 'id'> | undefined,
    limit: number,
    budget: number,
  ): Promise<ExportPage> {
    const values: unknown[] = [formId, accountId];
    const param = (value: unknown): string => {
      values.push(value);
      return `$${values.length}`;
    };
    const column = sortColumnOf(query);
    const descending = query.sort.order === 'desc';
    const where = ['form_id = $1', 'account_id = $2'];
    if (query.responseTypes) where.push(`response_type = ANY(${param(query.responseTypes)}::text[])`);
    // A partial or started response filters on its last save (submitted_at), as the listing does.
    if (query.since) where.push(`submitted_at >= ${param(query.since)}::timestamp`);
    if (query.until) where.push(`submitted_at <= ${param(query.until)}::timestamp`);
    if (query.includedResponseIds) where.push(`id = ANY(${param(query.includedResponseIds)}::text[])`);
    if (query.excludedResponseIds) where.push(`NOT (id = ANY(${param(query.excludedResponseIds)}::text[]))`);
    if (query.query) where.push(`search_text LIKE ${param(`%${escapeLike(query.query.toLowerCase())}%`)}`);
    if (query.answeredFields && query.answeredFields.length > 0)
      where.push(`answered_fields && ${param(query.answeredFields)}::text[]`);
    if (cursor) {
      // The plain bound lets PostgreSQL start the index scan at the cursor;
      // the row comparison breaks ties on the column by id, as ORDER BY does.
      const at = param(cursor.at);
      const id = param(cursor.id);
      const past = descending ? '<' : '>';
      where.push(`${column} ${past}= ${at}::timestamp`, `(${column}, id) ${past} (${at}::timestamp, ${id})`);
    }
    const order = descending ? 'DESC' : 'ASC';
    const sorted = `${column} ${order}, id ${order}`;
    const text = keptWithinBytesSql({
      select: 'id, "responseType", "landedAt", "submittedAt", payload::text AS payload',
      rows: `SELECT id, response_type AS "responseType", landed_at::text AS "landedAt",
                    submitted_at::text AS "submittedAt", ${column}, payload
               FROM responses
              WHERE ${where.join(' AND ')}
              ORDER BY ${sorted}
              LIMIT ${param(limit)}`,
      order: sorted,
      budget: param(budget),
    });
    // An export is thousands of pages of the same statement: prepared once
    // per connection, it is not parsed and planned again for each. Not one
    // that searches the text: its plan depends on the words looked for.
    const name = query.query
      ? undefined
      : `export-page-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    const { rows } = await responsesSqlPool(this.db).query<ExportRow & { read: number }>({
      name,
      text,
      values,
    });
    return { rows, read: rows[0]?.read ?? 0 };
  }
}

function sortColumnOf(query: Pick<ResponseExportQuery, 'sort'>): 'landed_at' | 'submitted_at' {
  return query.sort.field === 'landed_at' ? 'landed_at' : 'submitted_at';
}

// The words of `query` match as they are: LIKE's wildcards and its escape
// character are escaped (backslash is LIKE's default escape).
function escapeLike(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_');
}
