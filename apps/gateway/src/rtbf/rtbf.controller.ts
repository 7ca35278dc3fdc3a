import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, HttpCode, Inject, Param } from '@nestjs/common';
import { regionBaseUrls } from '@formline/config';
import { type AccessTokenPrincipal, eraseRespondents } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { z } from 'zod';
import { Principal } from '../auth/principal.decorator';
import { RequiredScope } from '../auth/required-scope.decorator';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { ApiOperation } from '../openapi/api-operation.decorator';
import { parseRequest } from '../validation/parse-request';
import { RequestId } from '../http/request-id.decorator';

// Typeform's body: a bare array of addresses.
const emailList = z.array(z.string().trim().min(3).max(320)).min(1).max(100);

// Right to be forgotten (Typeform's RTBF endpoint): the account's responses
// that hold one of the addresses are deleted in the account's region. The
// deletion is done before the answer; the answer keeps Typeform's shape, a
// list of job ids (one, already finished).
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
      'with the webhook events and deliveries that carry them. Call it on the base address of the ' +
      "account's region (421 `WRONG_REGION` elsewhere).",
    body: emailList,
    responses: { 200: { description: 'Done: the job ids.', body: z.array(z.string()) } },
    errors: [ErrorCode.NotFound, ErrorCode.WrongRegion],
  })
  async erase(
    @RequestId() requestId: string,
    @Principal() principal: AccessTokenPrincipal,
    @Param('account_id') accountId: string,
    @Body() body: unknown,
  ): Promise<string[]> {
    if (accountId !== principal.accountId) {
      throw new DomainError(ErrorCode.NotFound, `Non existing account with id ${accountId.slice(0, 64)}.`);
    }
    const emails = parseRequest(emailList, body, 'body');
    // Another region's address holds none of the account's responses: saying
    // "done" there would be a silent failure to forget.
    if (principal.region !== this.config.REGION) {
      const baseUrl = regionBaseUrls(this.config)[principal.region];
      throw new DomainError(
        ErrorCode.WrongRegion,
        `This account's responses live in the ${principal.region} region: call ${baseUrl}/rtbf/${accountId}/responses.`,
      );
    }
    await this.rpc.request(eraseRespondents, { accountId, emails }, requestId);
    return [randomUUID()];
  }
}
