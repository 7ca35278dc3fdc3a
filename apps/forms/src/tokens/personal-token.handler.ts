import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  createPersonalToken,
  listPersonalTokens,
  type PersonalToken,
  type RpcRequest,
  revokePersonalToken,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { ContractPipe } from '@formline/messaging';
import { PersonalTokenRepository } from './personal-token.repository';

// Personal access tokens, managed by the account's owner (the gateway has
// checked the owner's password). Only hashes arrive here.
@Controller()
export class PersonalTokenHandler {
  constructor(private readonly tokens: PersonalTokenRepository) {}

  @MessagePattern(createPersonalToken.subject)
  async create(
    @Payload(new ContractPipe(createPersonalToken.request))
    request: RpcRequest<typeof createPersonalToken>,
  ): Promise<PersonalToken> {
    const expiresAt = request.expiresAt ? new Date(request.expiresAt) : undefined;
    if (expiresAt && expiresAt <= new Date()) {
      throw new DomainError(ErrorCode.ValidationError, 'expires_at must be in the future.', [
        { code: 'IN_THE_PAST', description: 'must be in the future', field: 'expires_at', in: 'body' },
      ]);
    }
    return this.tokens.create({ ...request, expiresAt });
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
