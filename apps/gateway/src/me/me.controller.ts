import { Controller, Get } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  type AccountProfile,
  accountProfileSchema,
  getAccountProfile,
} from '@formline/contracts';
import { RpcClient } from '@formline/messaging';
import { Principal, RequiredScope, ApiOperation, RequestId } from '@formline/http-edge';

@Controller('me')
export class MeController {
  constructor(private readonly rpc: RpcClient) {}

  // The account behind the token, and the base address of its region.
  @Get()
  @RequiredScope('accounts:read')
  @ApiOperation({
    summary: 'The account behind the token',
    description:
      "With the account's region and that region's base address, where its responses and webhooks live.",
    responses: { 200: { description: 'The account.', body: accountProfileSchema } },
  })
  me(@RequestId() requestId: string, @Principal() principal: AccessTokenPrincipal): Promise<AccountProfile> {
    return this.rpc.request(getAccountProfile, { accountId: principal.accountId }, requestId);
  }
}
