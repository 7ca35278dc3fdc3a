import type { GlobalConfig } from '@formline/app-config';
import type { OAuthApplicationRepository } from './oauth-application.repository';
import type { OAuthGrantRepository } from './oauth-grant.repository';
import { OAuthTokenService } from './oauth-token.service';

// The token endpoint when the application is deleted between its checks and
// the write (the write then finds its references gone): invalid_grant, which
// every OAuth client reads, never the services' generic 409.
describe('OAuthTokenService when the application goes meanwhile', () => {
  const referenceGone = Object.assign(new Error('Foreign key constraint violated'), { code: 'P2003' });
  const config = {
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: 3600,
    OAUTH_REFRESH_TOKEN_IDLE_TTL_SECONDS: 86_400,
    OAUTH_GRANTS_PER_APPLICATION: 10,
  } as GlobalConfig;
  const applications = {
    authenticateClient: () => Promise.resolve({ id: 'client-1', publicClient: false }),
  } as unknown as OAuthApplicationRepository;
  // The service over a grants repository that answers only what a test names.
  const serviceWith = (grants: Partial<Record<keyof OAuthGrantRepository, () => Promise<unknown>>>) =>
    new OAuthTokenService(applications, grants as unknown as OAuthGrantRepository, config);

  it('answers a refresh invalid_grant', async () => {
    const service = serviceWith({
      findRefreshToken: () =>
        Promise.resolve({
          grantId: 'grant-1',
          usedAt: null,
          createdAt: new Date(),
          grant: { applicationId: 'client-1', scopes: ['forms:read', 'offline'], revokedAt: null },
        }),
      claimRefreshToken: () => Promise.resolve(true),
      addTokens: () => Promise.reject(referenceGone),
    });
    await expect(
      service.refresh({
        grantType: 'refresh_token',
        clientId: 'client-1',
        clientSecretHash: 'hash',
        refreshTokenHash: 'refresh',
        newAccessTokenHash: 'access-2',
        newRefreshTokenHash: 'refresh-2',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_GRANT' });
  });

  it('answers a code exchange invalid_grant', async () => {
    const service = serviceWith({
      findCode: () =>
        Promise.resolve({
          applicationId: 'client-1',
          accountId: 'account',
          redirectUri: 'https://app.example.com/callback',
          scopes: ['forms:read'],
          codeChallenge: null,
          expiresAt: new Date(Date.now() + 60_000),
          usedAt: null,
          grantId: null,
        }),
      claimCode: () => Promise.resolve(true),
      createGrant: () => Promise.reject(referenceGone),
    });
    await expect(
      service.exchangeCode({
        grantType: 'authorization_code',
        clientId: 'client-1',
        clientSecretHash: 'hash',
        codeHash: 'code',
        redirectUri: 'https://app.example.com/callback',
        newAccessTokenHash: 'access-1',
        newRefreshTokenHash: 'refresh-1',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_GRANT' });
  });
});
