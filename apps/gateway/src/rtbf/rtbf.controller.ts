import { Body, Controller, Delete, Get, HttpCode, Inject, Param } from '@nestjs/common';
import { requireHomeRegion } from '@formline/config';
import {
  type AccessTokenPrincipal,
  type ErasureJob,
  eraseRespondents,
  erasureJobSchema,
  getErasureJob,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { z } from 'zod';
import { Principal, RequiredScope, ApiOperation, parseRequest, RequestId } from '@formline/http-edge';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';

// Typeform's body: a bare array of addresses.
const emailList = z.array(z.string().trim().min(3).max(320)).min(1).max(100);

// Right to be forgotten (Typeform's RTBF endpoint): the account's responses
// that hold one of the addresses are deleted in the account's region by a job
// the call records there. As Typeform's, the answer comes at once with the
// job's id (in a list); the job's state is read at /rtbf/{account_id}/jobs/{job_id}.
@Controller('rtbf')
export class RtbfController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Delete(':account_id/responses')
  @HttpCode(200)
  @RequiredScope('responses:write')
  @ApiOperation({
    summary: "Delete a respondent's responses (right to be forgotten)",
    description:
      'Deletes every response of the account that holds one of the email addresses (up to 100): an email ' +
      'answer, hidden field or text variable equal to one, or a text answer containing one, case insensitive; ' +
      'with their uploaded files and the webhook events and deliveries that carry them. The deletion runs as ' +
      'a job in the background: the answer lists its id, and `GET /rtbf/{account_id}/jobs/{job_id}` shows ' +
      "its state. Call it on the base address of the account's region (421 `WRONG_REGION` elsewhere).",
    body: emailList,
    responses: { 200: { description: 'Job created: its id, in a list.', body: z.array(z.string()) } },
    errors: [ErrorCode.NotFound, ErrorCode.WrongRegion],
  })
  async erase(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('account_id') accountId: string,
    @Body() body: unknown,
  ): Promise<string[]> {
    this.checkAccount(principal, accountId, 'responses');
    const emails = parseRequest(emailList, body, 'body');
    const { jobId } = await this.rpc.request(eraseRespondents, { accountId, emails }, requestId);
    return [jobId];
  }

  @Get(':account_id/jobs/:job_id')
  @RequiredScope('responses:read')
  @ApiOperation({
    summary: 'A right-to-be-forgotten job',
    description:
      'The state of a job `DELETE /rtbf/{account_id}/responses` answered with: `queued`, `running`, `done` ' +
      '(every matching response is gone, with its files, events and deliveries) or `failed` (call the ' +
      'deletion again), and what it deleted so far. Jobs are kept 30 days after they end; the addresses ' +
      "they were given are not kept past that end. Call it on the base address of the account's region " +
      '(421 `WRONG_REGION` elsewhere).',
    responses: { 200: { description: 'The job.', body: erasureJobSchema } },
    errors: [ErrorCode.NotFound, ErrorCode.WrongRegion],
  })
  job(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('account_id') accountId: string,
    @Param('job_id') jobId: string,
  ): Promise<ErasureJob> {
    this.checkAccount(principal, accountId, `jobs/${jobId.slice(0, 64)}`);
    if (jobId.length > 64) throw new DomainError(ErrorCode.NotFound, 'Non existing job.');
    return this.rpc.request(getErasureJob, { accountId, jobId }, requestId);
  }

  // The caller's own account, on its region's address: another region holds
  // none of the account's responses nor jobs, and saying "done" there would
  // be a silent failure to forget.
  private checkAccount(principal: AccessTokenPrincipal, accountId: string, rest: string): void {
    if (accountId !== principal.accountId) {
      throw new DomainError(ErrorCode.NotFound, `Non existing account with id ${accountId.slice(0, 64)}.`);
    }
    requireHomeRegion(
      this.config,
      principal.region,
      "This account's responses",
      `/rtbf/${accountId}/${rest}`,
    );
  }
}
