import { Inject, Injectable } from '@nestjs/common';
import { requireHomeRegion } from '@formline/config';
import {
  authorizeForm,
  type ByteRpcReply,
  type ExportCursor,
  exportPageLimits,
  exportResponsesPage,
  exportRowsToAsk,
  type ResponseExportQuery,
  type ResponseResource,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { currentRequestId } from '@formline/ops';
import type { z } from 'zod';
import { inWholeSeconds, onlyFields } from '../listing/response-listing.service';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { type BuiltPage, ExportReadAhead, readAheadKey } from './response-export.read-ahead';
import { type ExportRow, ResponseExportRepository } from './response-export.repository';

// One page of a form's export as the bytes of its JSON lines, bounded in rows
// and in bytes so that it fits one NATS message whatever the responses hold. Access is checked as the
// listing checks it on the first page and again on the first page asked for
// after exportPageLimits.accessRecheckMs (a caller who lost it mid-export is
// stopped within that time, without a call to the global service for each of
// a large export's thousands of pages), and only the form's region serves
// it: the other region refuses (421), where the listing answers an empty
// page, because an empty export would read as a form without responses.
@Injectable()
export class ResponseExportService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly rows: ResponseExportRepository,
    private readonly ahead: ExportReadAhead,
    @Inject(RESPONSES_CONFIG) private readonly config: ResponsesConfig,
  ) {}

  async page(request: PageRequest): Promise<ByteRpcReply<typeof exportResponsesPage>> {
    const { formId, query, cursor } = request;
    const now = Date.now();
    const checkedAt =
      cursor?.checkedAt && now - Date.parse(cursor.checkedAt) < exportPageLimits.accessRecheckMs
        ? cursor.checkedAt
        : undefined;
    // Past the first page the owner is known: the page is read and written
    // (most often it was, ahead, below) while access is checked again (when
    // it is due), and sent only if it still holds for that owner. A page read
    // ahead for more rows than this ask allows is read again.
    const taken = cursor ? this.ahead.take(readAheadKey(formId, query, cursor)) : undefined;
    const ahead = taken && taken.limit <= request.maxItems ? taken : undefined;
    const limit = ahead?.limit ?? request.maxItems;
    const building = cursor
      ? (ahead?.page ?? this.built(cursor.owner, formId, query, cursor, limit))
      : undefined;
    building?.catch(() => undefined);
    const owner = cursor && checkedAt ? cursor.owner : await this.ownerReachedHere(request);
    if (cursor && cursor.owner !== owner)
      throw new DomainError(ErrorCode.FormNotFound, `Non existing form with uid ${formId}.`);
    const page =
      (await building) ??
      (await this.built(
        owner,
        formId,
        query,
        query.after ? await this.resumeAt(owner, request) : undefined,
        limit,
      ));
    const next = page.last
      ? cursorOf(page.last, owner, query.sort.field, checkedAt ?? new Date(now).toISOString())
      : null;
    // The next page is read and written while this one travels: the gateway
    // asks for it as soon as this one arrives.
    if (next) {
      const nextLimit = exportRowsToAsk(limit, page.rows, true);
      this.ahead.start(readAheadKey(formId, query, next), nextLimit, () =>
        this.built(owner, formId, query, next, nextLimit),
      );
    }
    return { meta: { rows: page.rows, next }, body: page.body };
  }

  // A page from PostgreSQL's rows: the lines that fit, written into one
  // Buffer; the rows' strings are let go as soon as it is written (a page
  // read ahead waits as bytes, outside V8's heap, not as a thousand strings
  // that would outlive their young generation).
  private async built(
    owner: string,
    formId: string,
    query: ResponseExportQuery,
    from: Pick<ExportCursor, 'at' | 'id'> | undefined,
    limit: number,
  ): Promise<BuiltPage> {
    const { rows, read } = await this.rows.page(owner, formId, query, from, limit, exportPageLimits.bytes);
    const { lines, bytes } = linesWithin(rows, query.fields, exportPageLimits.bytes);
    const last = lines.length > 0 ? rows[lines.length - 1] : undefined;
    const more = lines.length < read || read === limit;
    return {
      rows: lines.length,
      body: written(lines, bytes),
      last:
        more && last ? { id: last.id, landedAt: last.landedAt, submittedAt: last.submittedAt } : undefined,
    };
  }

  // The account whose responses the caller reaches, when they live in this
  // region; the other region refuses, naming the right address.
  private async ownerReachedHere(request: PageRequest): Promise<string> {
    const { accountId, formId } = request;
    const form = await this.rpc.request(
      authorizeForm,
      { accountId, formId, need: 'responses-read' },
      currentRequestId(),
    );
    requireHomeRegion(this.config, form.region, "This form's responses", `/forms/${formId}/responses/export`);
    return form.accountId;
  }

  // `after` names the response the previous export ended with: one of this
  // form's, else the export is refused (an empty one would read as finished).
  private async resumeAt(accountId: string, request: PageRequest): Promise<ExportCursor> {
    const token = request.query.after!;
    const anchor = await this.rows.anchorOf(accountId, request.formId, request.query, token);
    if (anchor) return anchor;
    throw new DomainError(ErrorCode.ValidationError, 'Invalid query parameters.', [
      {
        code: 'INVALID_VALUE',
        description: 'after must be the token of one of the form’s responses',
        field: 'after',
        in: 'query',
      },
    ]);
  }
}

// The request as its contract reads it (the responder validated it).
type PageRequest = z.output<(typeof exportResponsesPage)['request']>;

// The rows' JSON lines that fit `budget` bytes (each line and its `\n`),
// always the first: measured as text, as they are added, so that no line is
// written only to be measured.
function linesWithin(
  rows: readonly ExportRow[],
  fields: readonly string[] | undefined,
  budget: number,
): { lines: string[]; bytes: number } {
  const lines: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    const line = listedJson(row, fields);
    const size = Buffer.byteLength(line) + 1;
    if (lines.length > 0 && bytes + size > budget) break;
    lines.push(line);
    bytes += size;
  }
  return { lines, bytes };
}

// The lines as one Buffer, each written into it where it goes: never joined
// into one string first (a page's worth of string would go to V8's
// large-object space, which only a full collection frees).
function written(lines: readonly string[], bytes: number): Buffer {
  const page = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const line of lines) {
    at += page.write(line, at);
    page[at++] = 0x0a;
  }
  return page;
}

// The response's JSON as the listing shows it. A completed response stored
// with its whole-second timestamps (every one written since they were) is
// that already: its stored text is handed on as it is, which spares parsing
// and writing a million responses again. Any other is rebuilt as the listing
// builds it.
function listedJson(row: ExportRow, fields: readonly string[] | undefined): string {
  if (!fields && row.responseType === 'completed' && storedAsListed(row)) return row.payload;
  const payload = JSON.parse(row.payload) as ResponseResource;
  return JSON.stringify(
    onlyFields(
      inWholeSeconds({
        ...row,
        payload,
        landedAt: new Date(isoOf(row.landedAt)),
        submittedAt: new Date(isoOf(row.submittedAt)),
      }),
      fields,
    ),
  );
}

// PostgreSQL's text of a timestamp in UTC (`2026-11-27 07:00:05.123456`, its
// ISO DateStyle, which node-postgres needs too) as ISO 8601, to the
// microsecond it keeps: the cursor resumes exactly past the row.
function isoOf(text: string): string {
  return `${text.slice(0, 10)}T${text.slice(11)}Z`;
}

// Whether the stored text begins as the listing writes the row:
// `{"landing_id":"<id>","token":"<id>","response_id":"<id>","response_type":"completed",
// "landed_at":"<to the second>Z","submitted_at":"<to the second>Z",`. Compared
// where it stands, character by character: the head built as a string for
// each row (and the timestamps cut out of PostgreSQL's text) cost more than
// the rest of the page's work.
function storedAsListed(row: ExportRow): boolean {
  const text = row.payload;
  let at = 0;
  const next = (part: string): boolean => {
    if (!text.startsWith(part, at)) return false;
    at += part.length;
    return true;
  };
  // PostgreSQL's `2026-11-27 07:00:05.123456` against `2026-11-27T07:00:05`.
  const toTheSecond = (postgres: string): boolean => {
    for (let i = 0; i < 19; i++) {
      if (text.charCodeAt(at + i) !== (i === 10 ? 0x54 : postgres.charCodeAt(i))) return false;
    }
    at += 19;
    return true;
  };
  return (
    next('{"landing_id":"') &&
    next(row.id) &&
    next('","token":"') &&
    next(row.id) &&
    next('","response_id":"') &&
    next(row.id) &&
    next('","response_type":"completed","landed_at":"') &&
    toTheSecond(row.landedAt) &&
    next('Z","submitted_at":"') &&
    toTheSecond(row.submittedAt) &&
    next('Z",')
  );
}

function cursorOf(
  row: Pick<ExportRow, 'id' | 'landedAt' | 'submittedAt'>,
  owner: string,
  field: 'submitted_at' | 'landed_at',
  checkedAt: string,
): ExportCursor {
  return { at: isoOf(field === 'landed_at' ? row.landedAt : row.submittedAt), id: row.id, owner, checkedAt };
}
