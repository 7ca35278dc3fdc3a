import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  createPersonalToken,
  listPersonalTokens,
  type PersonalToken,
  type RpcRequest,
  revokePersonalToken,
} from '@formline/contracts';
import { capReachedError, DomainError, ErrorCode } from '@formline/errors';
import { ContractPipe } from '@formline/messaging';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { PersonalTokenRepository } from './personal-token.repository';

// Personal access tokens, managed by the account's owner (the gateway has
// checked the owner's password). Only hashes arrive here. An account holds at
// most PERSONAL_TOKENS_PER_ACCOUNT live tokens: each has its own request
// budget, so an uncapped number of them would make those budgets no bound.
@Controller()
export class PersonalTokenHandler {
  constructor(
    private readonly tokens: PersonalTokenRepository,
    @Inject(GLOBAL_CONFIG) private readonly config: GlobalConfig,
  ) {}

  @MessagePattern(createPersonalToken.subject)
  async create(
    @Payload(new ContractPipe(createPersonalToken.request))
    request: RpcRequest<typeof createPersonalToken>,
  ): Promise<PersonalToken> {
    const now = new Date();
    const expiresAt = request.expiresAt ? new Date(request.expiresAt) : undefined;
    if (expiresAt && expiresAt <= now) {
      throw new DomainError(ErrorCode.ValidationError, 'expires_at must be in the future.', [
        { code: 'IN_THE_PAST', description: 'must be in the future', field: 'expires_at', in: 'body' },
      ]);
    }
    const maxLive = this.config.PERSONAL_TOKENS_PER_ACCOUNT;
    const created = await this.tokens.create({ ...request, expiresAt }, maxLive, now);
    if (!created) {
      throw capReachedError(
        'TOO_MANY_TOKENS',
        `This account holds ${maxLive} live personal tokens, the most it may; revoke one to create another.`,
        `at most ${maxLive} live tokens an account`,
      );
    }
    return created;
  }

  @MessagePattern(listPersonalTokens.subject)
  async list(
    @Payload(new ContractPipe(listPersonalTokens.request)) request: RpcRequest<typeof listPersonalTokens>,
  ): Promise<{ items: PersonalToken[] }> {
    return { items: await this.tokens.listLive(request.accountId, new Date()) };
  }

  @MessagePattern(revokePersonalToken.subject)
  async revoke(
    @Payload(new ContractPipe(revokePersonalToken.request)) request: RpcRequest<typeof revokePersonalToken>,
  ): Promise<Record<string, never>> {
    if (!(await this.tokens.revoke(request.accountId, request.tokenId, new Date()))) {
      throw new DomainError(ErrorCode.TokenNotFound, `Non existing token with id ${request.tokenId}.`);
    }
    return {};
  }
}
