import { useScratchAccounts } from '@formline/testing';
import { AccessTokenRepository } from './access-token.repository';

// AccessTokenRepository against PostgreSQL: a bearer token's hash finds a
// personal token or an OAuth access token, either with its account's region;
// an OAuth token counts as revoked when its grant is.
describe('AccessTokenRepository against PostgreSQL', () => {
  const accounts = useScratchAccounts({ ada: 'eu', bob: 'us' });
  let tokens: AccessTokenRepository;
  let ada: string;
  let bob: string;
  const expires = new Date('2027-01-01T00:00:00Z');
  const revoked = new Date('2026-06-01T00:00:00Z');

  beforeAll(() => {
    tokens = new AccessTokenRepository(accounts.client);
  });
  beforeEach(async () => {
    ({ ada, bob } = accounts.ids);
    const db = accounts.client;
    await db.personalAccessToken.create({
      data: { id: 'pat-1', accountId: ada, name: 'ci', tokenHash: 'hash-personal', scopes: ['forms:read'] },
    });
    // Bob authorized Ada's application: the OAuth tokens are Bob's, in his region.
    await db.oAuthApplication.create({
      data: { id: 'client-1', accountId: ada, name: 'App', clientSecretHash: 'x', redirectUris: [] },
    });
    for (const grantId of ['grant-live', 'grant-revoked']) {
      await db.oAuthGrant.create({
        data: {
          id: grantId,
          applicationId: 'client-1',
          accountId: bob,
          scopes: ['forms:read'],
          revokedAt: grantId === 'grant-revoked' ? revoked : null,
        },
      });
    }
    await db.oAuthAccessToken.createMany({
      data: [
        { tokenHash: 'hash-oauth', grantId: 'grant-live', scopes: ['responses:read'], expiresAt: expires },
        {
          tokenHash: 'hash-oauth-revoked',
          grantId: 'grant-live',
          scopes: ['responses:read'],
          expiresAt: expires,
          revokedAt: revoked,
        },
        {
          tokenHash: 'hash-of-revoked-grant',
          grantId: 'grant-revoked',
          scopes: ['forms:read'],
          expiresAt: expires,
        },
      ],
    });
  });

  it("finds a personal token with its account's region", async () => {
    expect(await tokens.findByHash('hash-personal')).toMatchObject({
      accountId: ada,
      region: 'eu',
      scopes: ['forms:read'],
      expiresAt: null,
      revokedAt: null,
    });
  });

  it("finds an OAuth access token as its grant's account's, in that account's region", async () => {
    expect(await tokens.findByHash('hash-oauth')).toEqual({
      accountId: bob,
      region: 'us',
      scopes: ['responses:read'],
      expiresAt: expires,
      revokedAt: null,
    });
    expect(await tokens.findByHash('hash-oauth-revoked')).toMatchObject({ revokedAt: revoked });
  });

  it('answers a token of a revoked grant as revoked, and nothing for an unknown hash', async () => {
    expect(await tokens.findByHash('hash-of-revoked-grant')).toMatchObject({
      accountId: bob,
      revokedAt: revoked,
    });
    expect(await tokens.findByHash('no-such-hash')).toBeUndefined();
  });
});
