import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { listOAuthGrants, type OAuthGrant, revokeOAuthGrant, type RpcRequest } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { ContractPipe } from '@formline/messaging';
import { OAuthGrantRepository } from './oauth-grant.repository';

// The applications an account has granted access to, for its owner to see and
// to cut off: revoking a grant ends every token issued under it at once.
@Controller()
export class OAuthGrantHandler {
  constructor(private readonly grants: OAuthGrantRepository) {}

  @MessagePattern(listOAuthGrants.subject)
  async list(
    @Payload(new ContractPipe(listOAuthGrants.request)) request: RpcRequest<typeof listOAuthGrants>,
  ): Promise<{ items: OAuthGrant[] }> {
    return { items: await this.grants.listGrants(request.accountId) };
  }

  @MessagePattern(revokeOAuthGrant.subject)
  async revoke(
    @Payload(new ContractPipe(revokeOAuthGrant.request)) request: RpcRequest<typeof revokeOAuthGrant>,
  ): Promise<Record<string, never>> {
    if (!(await this.grants.revokeAccountGrant(request.accountId, request.grantId, new Date()))) {
      // Another account's grant answers the same as none at all.
      throw new DomainError(ErrorCode.NotFound, `Non existing authorization with id ${request.grantId}.`);
    }
    return {};
  }
}
