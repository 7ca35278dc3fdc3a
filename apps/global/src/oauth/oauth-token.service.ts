import { Inject, Injectable } from '@nestjs/common';
import type { issueOAuthToken, RpcReply, RpcRequest } from '@formline/contracts';
import { DomainError, ErrorCode, isConcurrentChange } from '@formline/errors';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { OAuthApplicationRepository } from './oauth-application.repository';
import { OAuthGrantRepository } from './oauth-grant.repository';

type IssueRequest = RpcRequest<typeof issueOAuthToken>;
type CodeRequest = Extract<IssueRequest, { grantType: 'authorization_code' }>;
type RefreshRequest = Extract<IssueRequest, { grantType: 'refresh_token' }>;
type IssueReply = RpcReply<typeof issueOAuthToken>;

// The token endpoint's rules (RFC 6749 4.1.3 and 6, RFC 7636 4.6, RFC 7009).
// A code or refresh token used twice has leaked: the grant it belongs to is
// revoked, so whoever holds the copies loses access too.
@Injectable()
export class OAuthTokenService {
  constructor(
    private readonly applications: OAuthApplicationRepository,
    private readonly grants: OAuthGrantRepository,
    @Inject(GLOBAL_CONFIG) private readonly config: GlobalConfig,
  ) {}

  async exchangeCode(request: CodeRequest): Promise<IssueReply> {
    const client = await this.applications.authenticateClient(request.clientId, request.clientSecretHash);
    const now = new Date();
    const code = await this.grants.findCode(request.codeHash);
    if (!code || code.applicationId !== client.id) throw invalidGrant('The authorization code is invalid.');
    if (code.usedAt) {
      if (code.grantId) await this.grants.revokeGrant(code.grantId, now);
      throw invalidGrant('The authorization code has already been used.');
    }
    if (code.expiresAt <= now) throw invalidGrant('The authorization code has expired.');
    if (code.redirectUri !== request.redirectUri) {
      throw invalidGrant('redirect_uri does not match the one of the authorization request.');
    }
    // RFC 7636 4.6, and for a public client the code's only binding (RFC 9700 2.1.1).
    if (client.publicClient && (!code.codeChallenge || request.codeVerifierChallenge === undefined)) {
      throw invalidGrant('code_verifier is required: this application must use PKCE.');
    }
    if (code.codeChallenge !== (request.codeVerifierChallenge ?? null)) {
      throw invalidGrant(
        code.codeChallenge
          ? 'code_verifier does not match the code_challenge of the authorization request.'
          : 'code_verifier was sent, but the authorization request had no code_challenge.',
      );
    }
    if (!(await this.grants.claimCode(request.codeHash, now))) {
      throw invalidGrant('The authorization code has already been used.');
    }
    const offline = code.scopes.includes('offline') && !client.publicClient;
    await this.grants
      .createGrant(
        {
          applicationId: client.id,
          accountId: code.accountId,
          scopes: code.scopes,
          codeHash: request.codeHash,
        },
        {
          accessTokenHash: request.newAccessTokenHash,
          accessTokenScopes: code.scopes,
          accessTokenExpiresAt: this.accessTokenExpiry(now),
          refreshTokenHash: offline ? request.newRefreshTokenHash : undefined,
        },
        this.config.OAUTH_GRANTS_PER_APPLICATION,
        now,
      )
      .catch(endedMeanwhile);
    return {
      scopes: code.scopes,
      expiresIn: this.config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenIssued: offline,
    };
  }

  async refresh(request: RefreshRequest): Promise<IssueReply> {
    const client = await this.applications.authenticateClient(request.clientId, request.clientSecretHash);
    const now = new Date();
    const token = await this.grants.findRefreshToken(request.refreshTokenHash);
    if (!token || token.grant.applicationId !== client.id)
      throw invalidGrant('The refresh token is invalid.');
    if (token.grant.revokedAt) throw invalidGrant('The refresh token has been revoked.');
    if (token.usedAt) await this.replayed(token.grantId, now);
    // Each refresh issues a new token, so its age is the time since the grant was last used.
    const idleUntil = token.createdAt.getTime() + this.config.OAUTH_REFRESH_TOKEN_IDLE_TTL_SECONDS * 1000;
    if (idleUntil <= now.getTime())
      throw invalidGrant('The refresh token has expired (unused for too long).');
    // Checked before the token is used up: a request that asks too much
    // leaves the token as it was, for a corrected request.
    const scopes = request.scopes ?? token.grant.scopes;
    const beyond = scopes.filter((scope) => !token.grant.scopes.includes(scope));
    if (beyond.length) {
      throw new DomainError(ErrorCode.InvalidScope, `Scopes not granted: ${beyond.join(' ')}.`);
    }
    if (!(await this.grants.claimRefreshToken(request.refreshTokenHash, now)))
      await this.replayed(token.grantId, now);
    await this.grants
      .addTokens(token.grantId, {
        accessTokenHash: request.newAccessTokenHash,
        accessTokenScopes: scopes,
        accessTokenExpiresAt: this.accessTokenExpiry(now),
        refreshTokenHash: request.newRefreshTokenHash,
      })
      .catch(endedMeanwhile);
    return { scopes, expiresIn: this.config.OAUTH_ACCESS_TOKEN_TTL_SECONDS, refreshTokenIssued: true };
  }

  // RFC 7009 2.2: an unknown token, or another client's, is not an error
  // (the answer must not tell whether a token exists).
  async revoke(request: { clientId: string; clientSecretHash?: string; tokenHash: string }): Promise<void> {
    const client = await this.applications.authenticateClient(request.clientId, request.clientSecretHash);
    const now = new Date();
    const access = await this.grants.findAccessTokenGrant(request.tokenHash);
    if (access) {
      if (access.applicationId === client.id) await this.grants.revokeAccessToken(request.tokenHash, now);
      return;
    }
    const refresh = await this.grants.findRefreshToken(request.tokenHash);
    if (refresh && refresh.grant.applicationId === client.id)
      await this.grants.revokeGrant(refresh.grantId, now);
  }

  private async replayed(grantId: string, now: Date): Promise<never> {
    await this.grants.revokeGrant(grantId, now);
    throw invalidGrant('The refresh token has already been used; the authorization is revoked.');
  }

  private accessTokenExpiry(now: Date): Date {
    return new Date(now.getTime() + this.config.OAUTH_ACCESS_TOKEN_TTL_SECONDS * 1000);
  }
}

function invalidGrant(description: string): DomainError {
  return new DomainError(ErrorCode.InvalidGrant, description);
}

// The application deleted (its codes and grants with it) between the checks
// above and the write, which then finds its references gone: invalid_grant,
// as RFC 6749 says of a code or token no longer valid, never a 409 the
// client's OAuth library cannot read. (A grant revoked meanwhile raises
// nothing here: the tokens just made belong to it and are refused at once.)
function endedMeanwhile(error: unknown): never {
  if (isConcurrentChange(error)) throw invalidGrant('The grant ended while the token was being issued.');
  throw error;
}
