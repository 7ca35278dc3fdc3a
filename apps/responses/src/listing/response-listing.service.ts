import { currentRequestId } from '@formline/ops';
import { Inject, Injectable } from '@nestjs/common';
import {
  locateForm,
  type Page,
  type ResponseQuery,
  type ResponseResource,
  wholeSecondsIso,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { inputLimits, jsonBytes } from '@formline/input';
import { RpcClient } from '@formline/messaging';
import { ResponseRepository } from '../response.repository';
import { RESPONSES_CONFIG, type ResponsesConfig } from '../responses.config';
import { notSubmittedAt } from '../submission/partial-response.builder';

// Lists and deletes an account's responses. A form of an account in another
// region has no responses here: empty results, not an error (SPEC 1 rule 2, 7.1).
@Injectable()
export class ResponseListingService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly responses: ResponseRepository,
    @Inject(RESPONSES_CONFIG) private readonly config: ResponsesConfig,
  ) {}

  async list(accountId: string, formId: string, query: ResponseQuery): Promise<Page<ResponseResource>> {
    if (!(await this.ownedHere(accountId, formId))) return { total_items: 0, page_count: 0, items: [] };
    const { total, rows } = await this.responses.list(accountId, formId, query);
    return {
      total_items: total,
      page_count: Math.ceil(total / query.pageSize),
      items: cutByBytes(rows.map((row) => onlyFields(inWholeSeconds(row), query.fields))),
    };
  }

  async delete(accountId: string, formId: string, ids: readonly string[]): Promise<number> {
    if (!(await this.ownedHere(accountId, formId))) return 0;
    return this.responses.delete(accountId, formId, ids);
  }

  // The caller's form (else 404, as for every other verb), and whether its
  // responses live in this region.
  private async ownedHere(accountId: string, formId: string): Promise<boolean> {
    const location = await this.rpc.request(locateForm, { formId }, currentRequestId());
    if (location.accountId !== accountId) {
      throw new DomainError(ErrorCode.FormNotFound, `Non existing form with uid ${formId}.`);
    }
    return location.region === this.config.REGION;
  }
}

// Typeform's whole-second timestamps, also for responses stored before they
// were; a response not yet submitted shows Typeform's zero time (its row's
// submitted_at is its last save).
function inWholeSeconds(row: {
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
function onlyFields(response: ResponseResource, fields: readonly string[] | undefined): ResponseResource {
  if (!fields) return response;
  const answers = (response.answers as Array<{ field: { id: string; ref: string } }>).filter(
    (answer) => fields.includes(answer.field.id) || fields.includes(answer.field.ref),
  );
  return { ...response, answers };
}

// A page travels as one NATS message (1 MB at most): it holds as many of its
// responses as fit in inputLimits.pageBytes, and always the first (a stored
// response is bounded well below). A client that gets fewer items than it
// asked for pages on with `before`/`after` and the last token, as Typeform's do.
function cutByBytes(items: ResponseResource[]): ResponseResource[] {
  let bytes = 0;
  const page: ResponseResource[] = [];
  for (const item of items) {
    bytes += jsonBytes(item) + 1;
    if (page.length > 0 && bytes > inputLimits.pageBytes) break;
    page.push(item);
  }
  return page;
}
