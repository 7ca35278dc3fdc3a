import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { issueOAuthToken, revokeOAuthToken, type RpcReply, type RpcRequest } from '@formline/contracts';
import { ContractPipe } from '@formline/messaging';
import { OAuthTokenService } from './oauth-token.service';

@Controller()
export class OAuthTokenHandler {
  constructor(private readonly tokens: OAuthTokenService) {}

  @MessagePattern(issueOAuthToken.subject)
  async issue(
    @Payload(new ContractPipe(issueOAuthToken.request)) request: RpcRequest<typeof issueOAuthToken>,
  ): Promise<RpcReply<typeof issueOAuthToken>> {
    switch (request.grantType) {
      case 'authorization_code':
        return this.tokens.exchangeCode(request);
      case 'refresh_token':
        return this.tokens.refresh(request);
    }
  }

  @MessagePattern(revokeOAuthToken.subject)
  async revoke(
    @Payload(new ContractPipe(revokeOAuthToken.request)) request: RpcRequest<typeof revokeOAuthToken>,
  ): Promise<Record<string, never>> {
    await this.tokens.revoke(request);
    return {};
  }
}
