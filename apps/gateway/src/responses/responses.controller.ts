import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  deleteResponses,
  listResponses,
  type Page,
  pageOf,
  type ResponseResource,
  responseResourceSchema,
  submissionSchema,
} from '@formline/contracts';
import { ErrorCode, errorBodySchema } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  OptionalPrincipal,
  ScopeIfAuthenticated,
  Principal,
  RequiredScope,
  QueryPipe,
  ApiOperation,
  parseRequest,
  RequestId,
  AnonymousBudget,
} from '@formline/http-edge';
import {
  responseDeleteBody,
  responseDeleteQuery,
  responseIdsToDelete,
  responseListQuery,
  toResponseQuery,
} from './response-list.query';
import { SubmissionTargets } from './submission-target';
import { SubmissionSender } from './submission.sender';

// Submissions and Typeform's Responses API. Responses live only in the region
// of the form's account: a submission sent to the other region's address is
// redirected (307, body kept) before it is read, and a listing there is empty.
@Controller('forms/:form_id')
export class ResponsesController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly targets: SubmissionTargets,
    private readonly submissions: SubmissionSender,
  ) {}

  @Post('submissions')
  @HttpCode(201)
  @ScopeIfAuthenticated('responses:write')
  @AnonymousBudget('submissions')
  @ApiOperation({
    summary: 'Submit a response',
    description:
      'A public form takes submissions from anyone; a private one only with a token of its owner. ' +
      'Send `Idempotency-Key` to make a retried submission count once. ' +
      'Submissions without a token are rate limited per client address and per form (429 with `Retry-After`).',
    body: submissionSchema,
    responses: {
      201: { description: 'The response, as the Responses API shows it.', body: responseResourceSchema },
      200: {
        description: 'A submission with an Idempotency-Key seen before: the response stored then.',
        body: responseResourceSchema,
        headers: { 'Idempotent-Replayed': '`true`: this answer replays an earlier submission.' },
      },
      307: {
        description: "The form's responses live in the other region: submit there, with the same body.",
        body: errorBodySchema,
        headers: { Location: "The submissions address in the form's region." },
      },
    },
    errors: [ErrorCode.FormNotFound, ErrorCode.WrongRegion, ErrorCode.IdempotencyKeyReused],
  })
  async submit(
    @RequestId() requestId: string,
    @OptionalPrincipal() principal: AccessTokenPrincipal | undefined,
    @Param('form_id') formId: string,
    @Body() body: unknown,
    @Headers() headers: Record<string, string | undefined>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    // The form's snapshot, cached: where it takes submissions, and what they are
    // checked against, handed on so the responses service does not ask for it again.
    const target = await this.targets.locate(formId, { principal, requestId }, { verb: 'submit' });
    const redirected = this.targets.elsewhere(target, {
      path: `/forms/${formId}/submissions`,
      takes: 'submissions',
      redirect: reply,
    });
    if (redirected) return redirected;
    const { form } = target;
    const { response, replayed } = await this.submissions.submit(
      {
        formId,
        body,
        idempotencyKey: headers['idempotency-key'],
        metadata: { user_agent: headers['user-agent'], referer: headers.referer },
      },
      form,
      requestId,
    );
    if (replayed) void reply.status(200).header('Idempotent-Replayed', 'true');
    return response;
  }

  @Get('responses')
  @RequiredScope('responses:read')
  @ApiOperation({
    summary: "A form's responses",
    description:
      "Only the region of the form's account holds them; the other region lists none. " +
      'Members of a workspace shared with the account read the responses of its forms too. ' +
      'A page holds the responses that fit 768 KiB, always one: a client given fewer than page_size pages on with the last token.',
    responses: { 200: { description: 'A page of responses.', body: pageOf(responseResourceSchema) } },
    errors: [ErrorCode.FormNotFound],
  })
  list(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Query(new QueryPipe(responseListQuery)) query: z.output<typeof responseListQuery>,
  ): Promise<Page<ResponseResource>> {
    return this.rpc.request(
      listResponses,
      {
        accountId: principal.accountId,
        formId,
        query: toResponseQuery(query),
      },
      requestId,
    );
  }

  @Delete('responses')
  @RequiredScope('responses:write')
  @ApiOperation({
    summary: "Delete some of a form's responses",
    description:
      'Name up to 1000 responses in `included_response_ids`: comma-separated in the query, ' +
      'or as an array in a JSON body (`included_tokens` is the older spelling of the query parameter). ' +
      'In a workspace shared with the account, only a member with role `owner` deletes responses (403 otherwise).',
    body: responseDeleteBody,
    bodyOptional: true,
    responses: { 200: { description: 'Deleted (unknown ids are ignored).', body: null } },
    errors: [ErrorCode.FormNotFound, ErrorCode.Forbidden],
  })
  async delete(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('form_id') formId: string,
    @Query(new QueryPipe(responseDeleteQuery)) query: z.output<typeof responseDeleteQuery>,
    @Body() body: unknown,
  ): Promise<void> {
    const named =
      body === undefined || body === null ? undefined : parseRequest(responseDeleteBody, body, 'body');
    const responseIds = responseIdsToDelete(query, named);
    await this.rpc.request(
      deleteResponses,
      { accountId: principal.accountId, formId, responseIds },
      requestId,
    );
  }
}
