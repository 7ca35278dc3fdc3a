import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type AccessTokenPrincipal, verifyAccessToken } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { ContractPipe } from '@formline/messaging';
import { AccessTokenRepository } from './access-token.repository';

// Answers the gateway's "who is this?" for a bearer token. Accounts own their
// tokens, so the service that owns accounts decides.
@Controller()
export class AccessTokenController {
  constructor(private readonly tokens: AccessTokenRepository) {}

  @MessagePattern(verifyAccessToken.subject)
  async verify(
    @Payload(new ContractPipe(verifyAccessToken.request)) request: { tokenHash: string },
  ): Promise<AccessTokenPrincipal> {
    const token = await this.tokens.findByHash(request.tokenHash);
    const now = new Date();
    // One answer for unknown, revoked and expired tokens: nothing to probe for.
    if (!token || token.revokedAt || (token.expiresAt && token.expiresAt <= now)) {
      throw new DomainError(
        ErrorCode.AuthenticationFailed,
        'Authentication credentials not found on the Request Headers.',
      );
    }
    return { accountId: token.accountId, region: token.region, scopes: token.scopes };
  }
}
