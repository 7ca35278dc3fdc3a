import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { regionBaseUrls } from '@formline/config';
import { type AccountProfile, getAccountProfile, type RpcRequest } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { ContractPipe } from '@formline/messaging';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { AccountRepository } from './account.repository';

// GET /me: the account behind a token, with the base address of its region.
@Controller()
export class AccountProfileHandler {
  constructor(
    private readonly accounts: AccountRepository,
    @Inject(GLOBAL_CONFIG) private readonly config: GlobalConfig,
  ) {}

  @MessagePattern(getAccountProfile.subject)
  async get(
    @Payload(new ContractPipe(getAccountProfile.request)) request: RpcRequest<typeof getAccountProfile>,
  ): Promise<AccountProfile> {
    const account = await this.accounts.findById(request.accountId);
    if (!account) throw new DomainError(ErrorCode.NotFound, 'The account no longer exists.');
    return {
      user_id: account.id,
      alias: account.alias,
      email: account.email,
      language: account.language,
      region: account.region,
      base_url: regionBaseUrls(this.config)[account.region],
    };
  }
}
