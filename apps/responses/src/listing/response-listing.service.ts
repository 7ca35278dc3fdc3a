import { currentRequestId } from '@formline/ops';
import { Inject, Injectable } from '@nestjs/common';
import {
  authorizeForm,
  type FormNeed,
  type Page,
  type ResponseQuery,
  type ResponseResource,
  wholeSecondsIso,
} from '@formline/contracts';
import { halfThePoolSlots, type Slots } from '@formline/db';
import { itemsWithinPageBytes } from '@formline/input';
import { RpcClient } from '@formline/messaging';
import { readDirection, ResponseRepository } from '../response.repository';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { notSubmittedAt } from '../submission/partial-response.builder';
import { uploadBytesRemover } from '../uploads/upload-bytes.remover';

// Lists and deletes a form's responses, for its owning account and for the
// members of a workspace shared with it (as the global service's FormAccess
// decides). A form of an account in another region has no responses here:
// empty results, not an error (region rule 2, docs/architecture.md).
@Injectable()
export class ResponseListingService {
  // A deletion holds a connection for its transaction while the media app
  // removes the files' bytes (a request per batch of files, each up to
  // NATS_REQUEST_TIMEOUT_MS). With the media app slow, as many deletions as
  // the pool has connections would hold them all, and every other query of
  // the service (listings, exports, the intake's key lookups) would wait for
  // one until 503. At most half the pool's connections are held by deletions;
  // more wait here, holding none, as long as a query would wait for a
  // connection (then 503, and nothing is deleted).
  private readonly deletions: Slots;

  constructor(
    private readonly rpc: RpcClient,
    private readonly responses: ResponseRepository,
    @Inject(RESPONSES_CONFIG) private readonly config: ResponsesConfig,
  ) {
    this.deletions = halfThePoolSlots(config, 'The responses database');
  }

  async list(accountId: string, formId: string, query: ResponseQuery): Promise<Page<ResponseResource>> {
    const owner = await this.reachedHere(accountId, formId, 'responses-read');
    if (!owner) return { total_items: 0, page_count: 0, items: [] };
    const { total, rows } = await this.responses.list(owner, formId, query);
    return {
      total_items: total,
      page_count: Math.ceil(total / query.pageSize),
      items: itemsWithinPageBytes(
        rows.map((row) => onlyFields(inWholeSeconds(row), query.fields)),
        readDirection(query) !== query.sort.order,
      ),
    };
  }

  async delete(accountId: string, formId: string, ids: readonly string[]): Promise<number> {
    const owner = await this.reachedHere(accountId, formId, 'responses-delete');
    if (!owner) return 0;
    return this.deletions.run(() => this.responses.delete(owner, formId, ids, uploadBytesRemover(this.rpc)));
  }

  // The account whose responses the caller reaches, when they live in this
  // region. One request to the global service, as the owner's check always
  // took: it answers 404 for a form the caller does not reach and 403 for a
  // member whose role falls short, both passed on as they are.
  private async reachedHere(accountId: string, formId: string, need: FormNeed): Promise<string | undefined> {
    const form = await this.rpc.request(authorizeForm, { accountId, formId, need }, currentRequestId());
    return form.region === this.config.REGION ? form.accountId : undefined;
  }
}

// Typeform's whole-second timestamps, also for responses stored before they
// were; a response not yet submitted shows Typeform's zero time (its row's
// submitted_at is its last save).
export function inWholeSeconds(row: {
  payload: unknown;
  responseType: string;
  landedAt: Date;
  submittedAt: Date;
}): ResponseResource {
  return {
    ...(row.payload as ResponseResource),
    landed_at: wholeSecondsIso(row.landedAt),
    submitted_at: row.responseType === 'completed' ? wholeSecondsIso(row.submittedAt) : notSubmittedAt,
  };
}

// `fields`: only the answers to these questions (by id or ref).
export function onlyFields(
  response: ResponseResource,
  fields: readonly string[] | undefined,
): ResponseResource {
  if (!fields) return response;
  const answers = (response.answers as Array<{ field: { id: string; ref: string } }>).filter(
    (answer) => fields.includes(answer.field.id) || fields.includes(answer.field.ref),
  );
  return { ...response, answers };
}
