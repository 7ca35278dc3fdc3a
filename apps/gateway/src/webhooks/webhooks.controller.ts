import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { requireHomeRegion } from '@formline/config';
import {
  type AccessTokenPrincipal,
  authorizeForm,
  deleteWebhook,
  type DeliveryResource,
  deliveryResourceSchema,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliverDelivery,
  redeliverFailedDeliveries,
  sendTestDelivery,
  upsertWebhook,
  webhookInputSchema,
  type WebhookResource,
  webhookResourceSchema,
  webhookTagSchema,
} from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { z } from 'zod';
import {
  Principal,
  RequiredScope,
  QueryPipe,
  ApiOperation,
  type ApiOperationOptions,
  parseRequest,
  RequestId,
} from '@formline/http-edge';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';
import { endOfSecond, pointInTime } from '../responses/point-in-time';

// Pages by cursor like the Responses API: `before` (older) or `after` (newer) a delivery id.
const deliveryListQuery = z
  .object({
    page_size: z.coerce.number().int().min(1).max(200).default(50),
    before: z.string().min(1).max(64).optional(),
    after: z.string().min(1).max(64).optional(),
  })
  .refine((q) => !(q.after && q.before), { error: 'use after or before, not both', path: ['before'] });
const tagPath = z.object({ tag: webhookTagSchema });

// Since and until as the Responses API takes them (to the second), and Unix
// seconds as a JSON number too.
const unixSeconds = z.int().min(0).max(999_999_999_999).transform(String);
const instant = z.union([pointInTime, unixSeconds.pipe(pointInTime)]);
// The window of deliveries to send again, by when each was created; `until`
// includes its second and defaults to now.
const redeliverFailedBody = z
  .strictObject({ since: instant, until: instant.optional() })
  .refine((body) => !body.until || body.since <= body.until, {
    error: 'until may not be before since',
    path: ['until'],
  });
// How many one request sends at most; `more` says to ask again.
const redeliverFailedLimit = 1000;

// What every webhooks operation may answer besides its own: not the caller's
// form, or a form whose account lives in the other region.
const formHere = [ErrorCode.FormNotFound, ErrorCode.WrongRegion];
const webhookList = z.object({ items: z.array(webhookResourceSchema) });
const deliveryList = z.object({ items: z.array(deliveryResourceSchema) });
const upsertOperation: ApiOperationOptions = {
  summary: 'Create or change a webhook',
  description:
    'Creating needs `url`; a change may send any field alone. The URL must be https and public (or allowed by the operator). A form holds at most `WEBHOOKS_PER_FORM` webhooks (default 20); creating one more answers 409 `CONFLICT` (detail `TOO_MANY_WEBHOOKS`) until one is deleted.',
  body: webhookInputSchema,
  // Typeform answers 200 whether the webhook was created or changed.
  responses: { 200: { description: 'Created or changed.', body: webhookResourceSchema } },
  errors: [...formHere, ErrorCode.Conflict],
};

// A tag the service could never store is a bad path, said as such.
function checkedTag(tag: string): string {
  return parseRequest(tagPath, { tag }, 'path').tag;
}

// Typeform's Webhooks API, plus the delivery log. Webhooks live in the region
// of the form's account (region rule 3, docs/architecture.md): on the other
// region's address every operation refuses and names the right base address,
// because a webhook made there would never receive a submission.
@Controller('forms/:form_id/webhooks')
export class WebhooksController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get()
  @RequiredScope('webhooks:read')
  @ApiOperation({
    summary: "A form's webhooks",
    responses: { 200: { description: 'Every webhook of the form.', body: webhookList } },
    errors: formHere,
  })
  async list(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
  ): Promise<{ items: WebhookResource[] }> {
    await this.ownFormHere(principal, formId, requestId);
    return this.rpc.request(listWebhooks, { accountId: principal.accountId, formId }, requestId);
  }

  @Put(':tag')
  @HttpCode(200)
  @RequiredScope('webhooks:write')
  @ApiOperation(upsertOperation)
  upsert(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Param('tag') tag: string,
    @Body() body: unknown,
  ): Promise<WebhookResource> {
    return this.save(principal, formId, tag, body, requestId);
  }

  // POST on the same path does the same (Typeform accepts both).
  @Post(':tag')
  @HttpCode(200)
  @RequiredScope('webhooks:write')
  @ApiOperation({ ...upsertOperation, summary: 'Create or change a webhook (as PUT)' })
  upsertByPost(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Param('tag') tag: string,
    @Body() body: unknown,
  ): Promise<WebhookResource> {
    return this.save(principal, formId, tag, body, requestId);
  }

  @Get(':tag')
  @RequiredScope('webhooks:read')
  @ApiOperation({
    summary: 'A webhook',
    responses: { 200: { description: 'The webhook.', body: webhookResourceSchema } },
    errors: [...formHere, ErrorCode.NotFound],
  })
  async get(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Param('tag') tag: string,
  ): Promise<WebhookResource> {
    await this.ownFormHere(principal, formId, requestId);
    return this.rpc.request(
      getWebhook,
      { accountId: principal.accountId, formId, tag: checkedTag(tag) },
      requestId,
    );
  }

  @Delete(':tag')
  @HttpCode(204)
  @RequiredScope('webhooks:write')
  @ApiOperation({
    summary: 'Delete a webhook',
    responses: { 204: { description: 'Deleted.', body: null } },
    errors: [...formHere, ErrorCode.NotFound],
  })
  async delete(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Param('tag') tag: string,
  ): Promise<void> {
    await this.ownFormHere(principal, formId, requestId);
    await this.rpc.request(
      deleteWebhook,
      { accountId: principal.accountId, formId, tag: checkedTag(tag) },
      requestId,
    );
  }

  @Get(':tag/deliveries')
  @RequiredScope('webhooks:read')
  @ApiOperation({
    summary: "A webhook's delivery log",
    description:
      'Each event sent to the webhook, newest first, with its 25 newest attempts (attempt_count counts them all); a page holds what fits 768 KiB, always one delivery. Pages by cursor: pass the last id of a page as `before` for the next (older) page, or the first id as `after` for the previous (newer) one; an unknown id answers an empty page.',
    responses: { 200: { description: 'The deliveries.', body: deliveryList } },
    errors: [...formHere, ErrorCode.NotFound],
  })
  async deliveries(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Param('tag') tag: string,
    @Query(new QueryPipe(deliveryListQuery)) query: z.output<typeof deliveryListQuery>,
  ): Promise<{ items: DeliveryResource[] }> {
    await this.ownFormHere(principal, formId, requestId);
    return this.rpc.request(
      listDeliveries,
      {
        accountId: principal.accountId,
        formId,
        tag: checkedTag(tag),
        pageSize: query.page_size,
        before: query.before,
        after: query.after,
      },
      requestId,
    );
  }

  @Post(':tag/deliveries/:delivery_id/redeliver')
  @HttpCode(202)
  @RequiredScope('webhooks:write')
  @ApiOperation({
    summary: 'Send a delivery once more',
    responses: { 202: { description: 'Queued; the delivery as it stands.', body: deliveryResourceSchema } },
    errors: [...formHere, ErrorCode.NotFound],
  })
  async redeliver(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Param('tag') tag: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<DeliveryResource> {
    await this.ownFormHere(principal, formId, requestId);
    return this.rpc.request(
      redeliverDelivery,
      {
        accountId: principal.accountId,
        formId,
        tag: checkedTag(tag),
        deliveryId,
      },
      requestId,
    );
  }

  // An extension: Typeform's own site sends a test request, its API has none.
  @Post(':tag/test')
  @HttpCode(202)
  @RequiredScope('webhooks:write')
  @ApiOperation({
    summary: 'Send a test delivery',
    description:
      "An extension of Typeform's API. Sends the webhook, once and even when it is turned off, a `form_response` event with no answers whose `form_response.token` starts with `test-`, signed as every delivery is; it shows in the delivery log like any other.",
    responses: { 202: { description: 'Queued; the delivery as it stands.', body: deliveryResourceSchema } },
    errors: [...formHere, ErrorCode.NotFound],
  })
  async sendTest(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Param('tag') tag: string,
  ): Promise<DeliveryResource> {
    const validTag = checkedTag(tag);
    await this.ownFormHere(principal, formId, requestId);
    return this.rpc.request(
      sendTestDelivery,
      { accountId: principal.accountId, formId, tag: validTag },
      requestId,
    );
  }

  // An extension: Typeform has no delivery log, and Svix's "recover" is the model.
  @Post(':tag/deliveries/redeliver-failed')
  @HttpCode(202)
  @RequiredScope('webhooks:write')
  @ApiOperation({
    summary: 'Send every failed delivery of a window once more',
    description: `An extension of Typeform's API. Every delivery of the webhook that ended failed and was created between \`since\` and \`until\` (ISO 8601 or Unix seconds, to the second, \`until\` included and now by default) is sent once more, as redeliver does (one send each, even to a disabled webhook), the oldest first and at most ${redeliverFailedLimit} a request: \`more\` is true when that many were sent, and asking again sends the next ones.`,
    body: redeliverFailedBody,
    responses: {
      202: {
        description: 'Queued: how many were.',
        body: z.object({ redelivered: z.int(), more: z.boolean() }),
      },
    },
    errors: [...formHere, ErrorCode.NotFound],
  })
  async redeliverFailed(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Param('tag') tag: string,
    @Body() body: unknown,
  ): Promise<{ redelivered: number; more: boolean }> {
    const validTag = checkedTag(tag);
    const window = parseRequest(redeliverFailedBody, body, 'body');
    await this.ownFormHere(principal, formId, requestId);
    return this.rpc.request(
      redeliverFailedDeliveries,
      {
        accountId: principal.accountId,
        formId,
        tag: validTag,
        since: window.since.toISOString(),
        until: endOfSecond(window.until ?? new Date()).toISOString(),
        limit: redeliverFailedLimit,
      },
      requestId,
    );
  }

  private async save(
    principal: AccessTokenPrincipal,
    formId: string,
    tag: string,
    body: unknown,
    requestId: string,
  ): Promise<WebhookResource> {
    const validTag = checkedTag(tag);
    const input = parseRequest(webhookInputSchema, body, 'body');
    await this.ownFormHere(principal, formId, requestId);
    const { webhook } = await this.rpc.request(
      upsertWebhook,
      {
        accountId: principal.accountId,
        formId,
        tag: validTag,
        input,
      },
      requestId,
    );
    return webhook;
  }

  // The form is the caller's, and its account lives in this region.
  private async ownFormHere(
    principal: AccessTokenPrincipal,
    formId: string,
    requestId: string,
  ): Promise<void> {
    const form = await this.rpc.request(
      authorizeForm,
      { accountId: principal.accountId, formId, need: 'webhooks' },
      requestId,
    );
    requireHomeRegion(this.config, form.region, "This form's webhooks", `/forms/${formId}/webhooks`);
  }
}
