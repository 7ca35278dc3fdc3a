import { Inject, Injectable } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import {
  authorizeForm,
  type ExportCursor,
  exportPageLimits,
  exportResponsesPage,
  type ResponseResource,
  type RpcReply,
  type RpcRequest,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
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
    const { accountId, formId, query } = request;
    const form = await this.rpc.request(
      authorizeForm,
      { accountId, formId, need: 'responses-read' },
      currentRequestId(),
    );
    if (form.region !== this.config.REGION) {
      const base = regionBaseUrls(this.config)[form.region];
      throw new DomainError(
        ErrorCode.WrongRegion,
        `This form's responses are exported at ${base}/forms/${formId}/responses/export.`,
      );
    }
    const owner = form.accountId;
    const cursor = request.cursor ?? (query.after ? await this.resumeAt(owner, request) : undefined);
    const rows = await this.rows.page(owner, formId, query, cursor, request.maxItems);
    const items: ResponseResource[] = [];
    let bytes = 0;
    let last: ExportRow | undefined;
    for (const row of rows) {
      // Measured on the stored text: the whole seconds put over it change no length.
      bytes += Buffer.byteLength(row.payload) + 1;
      if (items.length > 0 && bytes > exportPageLimits.bytes) break;
      items.push(
        onlyFields(
          inWholeSeconds({ ...row, payload: JSON.parse(row.payload) as ResponseResource }),
          query.fields,
        ),
      );
      last = row;
    }
    const more = items.length < rows.length || rows.length === request.maxItems;
    return { items, next: more && last ? cursorOf(last, query.sort.field) : null };
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

function cursorOf(row: ExportRow, field: 'submitted_at' | 'landed_at'): ExportCursor {
  return { at: (field === 'landed_at' ? row.landedAt : row.submittedAt).toISOString(), id: row.id };
}
