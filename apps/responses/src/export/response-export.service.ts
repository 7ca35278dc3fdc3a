import { Inject, Injectable } from '@nestjs/common';
import { requireHomeRegion } from '@formline/config';
import {
  authorizeForm,
  type ExportCursor,
  exportPageLimits,
  exportResponsesPage,
  type ResponseResource,
  type RpcReply,
  type RpcRequest,
  wholeSecondsIso,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { jsonBytes } from '@formline/input';
import { RpcClient } from '@formline/messaging';
import { currentRequestId } from '@formline/ops';
import { inWholeSeconds, onlyFields } from '../listing/response-listing.service';
import { RESPONSES_CONFIG, type ResponsesConfig } from '../responses.config';
import { type ExportRow, ResponseExportRepository } from './response-export.repository';

// One page of a form's export, bounded in rows and in bytes so that it fits
// one NATS message whatever the responses hold. Every page checks access as
// the listing does (a caller who lost it mid-export is stopped at the next
// page), and only the form's region serves it: the other region refuses
// (421), where the listing answers an empty page, because an empty export
// would read as a form without responses.
@Injectable()
export class ResponseExportService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly rows: ResponseExportRepository,
    @Inject(RESPONSES_CONFIG) private readonly config: ResponsesConfig,
  ) {}

  async page(request: RpcRequest<typeof exportResponsesPage>): Promise<RpcReply<typeof exportResponsesPage>> {
    const { formId, query, cursor } = request;
    // Past the first page the owner is known: the rows are read while access
    // is checked again, and sent only if it still holds for that owner.
    const reading = cursor
      ? this.rows.page(cursor.owner, formId, query, cursor, request.maxItems)
      : undefined;
    reading?.catch(() => undefined);
    const owner = await this.ownerReachedHere(request);
    if (cursor && cursor.owner !== owner)
      throw new DomainError(ErrorCode.FormNotFound, `Non existing form with uid ${formId}.`);
    const rows =
      (await reading) ??
      (await this.rows.page(
        owner,
        formId,
        query,
        query.after ? await this.resumeAt(owner, request) : undefined,
        request.maxItems,
      ));
    const lines: string[] = [];
    let bytes = 0;
    let last: ExportRow | undefined;
    for (const row of rows) {
      const line = listedJson(row, query.fields);
      // As the line travels in the reply: escaped as a JSON string.
      bytes += jsonBytes(line) + 1;
      if (lines.length > 0 && bytes > exportPageLimits.bytes) break;
      lines.push(line);
      last = row;
    }
    const more = lines.length < rows.length || rows.length === request.maxItems;
    return { lines, next: more && last ? cursorOf(last, owner, query.sort.field) : null };
  }

  // The account whose responses the caller reaches, when they live in this
  // region; the other region refuses, naming the right address.
  private async ownerReachedHere(request: RpcRequest<typeof exportResponsesPage>): Promise<string> {
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
  private async resumeAt(
    accountId: string,
    request: RpcRequest<typeof exportResponsesPage>,
  ): Promise<ExportCursor> {
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

// The response's JSON as the listing shows it. A completed response stored
// with its whole-second timestamps (every one written since they were) is
// that already: its stored text is handed on as it is, which spares parsing
// and writing a million responses again. Any other is rebuilt as the listing
// builds it.
function listedJson(row: ExportRow, fields: readonly string[] | undefined): string {
  if (!fields && row.responseType === 'completed') {
    const head =
      `{"landing_id":"${row.id}","token":"${row.id}","response_id":"${row.id}","response_type":"completed",` +
      `"landed_at":"${wholeSecondsIso(row.landedAt)}","submitted_at":"${wholeSecondsIso(row.submittedAt)}",`;
    if (row.payload.startsWith(head)) return row.payload;
  }
  const payload = JSON.parse(row.payload) as ResponseResource;
  return JSON.stringify(onlyFields(inWholeSeconds({ ...row, payload }), fields));
}

function cursorOf(row: ExportRow, owner: string, field: 'submitted_at' | 'landed_at'): ExportCursor {
  return { at: (field === 'landed_at' ? row.landedAt : row.submittedAt).toISOString(), id: row.id, owner };
}
