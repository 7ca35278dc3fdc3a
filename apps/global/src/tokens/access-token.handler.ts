import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type AccessTokenPrincipal, verifyAccessToken } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { ContractPipe } from '@formline/messaging';
import { AccessTokenRepository } from './access-token.repository';

// Answers the gateway's "who is this?" for a bearer token. Accounts own their
// tokens, so the service that owns accounts decides. Unknown, revoked and
// expired tokens get distinct codes: only a holder of the token learns which,
// and it tells them what to do (get a token, or refresh it).
@Controller()
export class AccessTokenHandler {
  constructor(private readonly tokens: AccessTokenRepository) {}

  @MessagePattern(verifyAccessToken.subject)
  async verify(
    @Payload(new ContractPipe(verifyAccessToken.request)) request: { tokenHash: string },
  ): Promise<AccessTokenPrincipal> {
    const token = await this.tokens.findByHash(request.tokenHash);
    if (!token) throw new DomainError(ErrorCode.InvalidToken, 'The access token is not valid.');
    if (token.revokedAt) throw new DomainError(ErrorCode.TokenRevoked, 'The access token has been revoked.');
    if (token.expiresAt && token.expiresAt <= new Date()) {
      throw new DomainError(ErrorCode.TokenExpired, 'The access token has expired.');
    }
    return {
      accountId: token.accountId,
      region: token.region,
      scopes: token.scopes,
      expiresAt: token.expiresAt?.toISOString() ?? null,
    };
  }
}
