import { Controller, Get } from '@nestjs/common';
import { type AccessTokenPrincipal, type AccountProfile, getAccountProfile } from '@formline/contracts';
import { RpcClient } from '@formline/messaging';
import { Principal } from '../auth/principal.decorator';
import { RequiredScope } from '../auth/required-scope.decorator';

@Controller('me')
export class MeController {
  constructor(private readonly rpc: RpcClient) {}

  // The account behind the token, and the base address of its region.
  @Get()
  @RequiredScope('accounts:read')
  me(@Principal() principal: AccessTokenPrincipal): Promise<AccountProfile> {
    return this.rpc.request(getAccountProfile, { accountId: principal.accountId });
  }
}
