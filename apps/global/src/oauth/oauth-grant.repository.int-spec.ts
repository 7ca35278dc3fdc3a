import { createHash, randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { createAccount } from '@formline/admin';
import { tokensRevoked } from '@formline/contracts';
import type { GlobalPrismaClient } from '@formline/db';
import {
  emptyTables,
  listenForAnnouncements,
  scratchGlobalDatabase,
  testInfra,
  type AnnouncementListener,
  type ScratchDatabase,
} from '@formline/testing';
import { ChangeAnnouncer } from '../change-announcer';
import type { GlobalConfig } from '@formline/app-config';
import { OAuthApplicationRepository } from './oauth-application.repository';
import { OAuthGrantRepository, type NewTokens } from './oauth-grant.repository';

const hour = 3_600_000;
const now = new Date('2026-06-01T12:00:00Z');
const tokens = (name: string, refresh = true): NewTokens => ({
  accessTokenHash: `access-${name}`,
  accessTokenScopes: ['forms:read'],
  accessTokenExpiresAt: new Date(now.getTime() + hour),
  ...(refresh ? { refreshTokenHash: `refresh-${name}` } : {}),
});

// OAuthGrantRepository against PostgreSQL and the test profile's NATS: codes
// and refresh tokens are used once even by concurrent callers, a grant is made
// with its first tokens in one transaction, revocations are the account's own
// and tell the gateways once.
// The base addresses the deployment's own clients (the console) are known by.
const deployment = { BASE_URL: 'https://api.example', EU_BASE_URL: 'https://eu.api.example' } as GlobalConfig;

describe('OAuthGrantRepository against PostgreSQL', () => {
  let database: ScratchDatabase<GlobalPrismaClient>;
  let announcer: ChangeAnnouncer;
  let listener: AnnouncementListener;
  let grants: OAuthGrantRepository;
  let developer: string;
  let ada: string;
  let bob: string;

  beforeAll(async () => {
    database = await scratchGlobalDatabase();
    announcer = new ChangeAnnouncer(await connect({ servers: testInfra().natsUrl.us }));
    listener = await listenForAnnouncements(testInfra().natsUrl.us, tokensRevoked.subject);
    grants = new OAuthGrantRepository(database.client, announcer);
  });
  afterAll(async () => {
    await announcer?.close();
    await listener?.close();
    await database?.dispose();
  });
  beforeEach(async () => {
    await emptyTables(database.client);
    const account = async (alias: string) =>
      (await createAccount(database.client, { alias, email: `${alias}@example.com`, region: 'eu' }))
        .accountId;
    [developer, ada, bob] = [await account('dev'), await account('ada'), await account('bob')];
    for (const clientId of ['client-1', 'client-2']) {
      await new OAuthApplicationRepository(database.client, announcer, deployment).create(
        {
          accountId: developer,
          clientId,
          name: `App ${clientId}`,
          redirectUris: ['https://app.example.com/callback'],
          clientSecretHash: createHash('sha256').update(clientId).digest('hex'),
        },
        0,
      );
    }
  });

  // The accounts whose tokens were announced revoked since the last call.
  const announcedRevocations = async () => {
    const marker = `marker-${randomUUID()}`;
    await announcer.tokensRevoked(marker);
    const heard = await listener.takeUntil((payload) => payload.accountId === marker);
    return heard.map((payload: any) => payload.accountId).filter((id) => [developer, ada, bob].includes(id));
  };

  const code = (codeHash: string, accountId = ada, applicationId = 'client-1') =>
    grants.createCode({
      codeHash,
      applicationId,
      accountId,
      redirectUri: 'https://app.example.com/callback',
      scopes: ['forms:read', 'offline'],
      codeChallenge: 'challenge',
      expiresAt: new Date(now.getTime() + 60_000),
    });

  // A grant of the account's to the application, through a code, as the token endpoint makes it.
  const grant = async (
    name: string,
    accountId = ada,
    applicationId = 'client-1',
    refresh = true,
    maxOfApplication = 0,
  ) => {
    await code(`code-${name}`, accountId, applicationId);
    await grants.createGrant(
      { applicationId, accountId, scopes: ['forms:read', 'offline'], codeHash: `code-${name}` },
      tokens(name, refresh),
      maxOfApplication,
      now,
    );
    return (await grants.findCode(`code-${name}`))!.grantId!;
  };

  it('stores a code, finds it by its hash, and lets one of many concurrent callers use it', async () => {
    await code('code-1');
    expect(await grants.findCode('code-1')).toMatchObject({
      applicationId: 'client-1',
      accountId: ada,
      redirectUri: 'https://app.example.com/callback',
      scopes: ['forms:read', 'offline'],
      codeChallenge: 'challenge',
      usedAt: null,
      grantId: null,
    });
    expect(await grants.findCode('no-such-code')).toBeUndefined();
    await expect(code('code-1')).rejects.toMatchObject({ code: 'P2002' });

    const claims = await Promise.all(Array.from({ length: 8 }, () => grants.claimCode('code-1', now)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await grants.findCode('code-1'))?.usedAt).toEqual(now);
    expect(await grants.claimCode('no-such-code', now)).toBe(false);
  });

  it('makes a grant with its first tokens and ties the code to it; a refresh token only when asked', async () => {
    const withRefresh = await grant('one');
    expect(await grants.findAccessTokenGrant('access-one')).toEqual({ applicationId: 'client-1' });
    expect(await grants.findRefreshToken('refresh-one')).toEqual({
      grantId: withRefresh,
      usedAt: null,
      createdAt: expect.any(Date),
      grant: { applicationId: 'client-1', scopes: ['forms:read', 'offline'], revokedAt: null },
    });

    await grant('two', ada, 'client-1', false);
    expect(await grants.findAccessTokenGrant('access-two')).toEqual({ applicationId: 'client-1' });
    expect(await grants.findRefreshToken('refresh-two')).toBeUndefined();
    expect(await grants.findAccessTokenGrant('no-such-token')).toBeUndefined();
  });

  it('writes nothing of a grant whose tokens cannot be written', async () => {
    await grant('one');
    await code('code-again');
    // The access token's hash is taken: the whole grant fails, the code stays unbound.
    await expect(
      grants.createGrant(
        { applicationId: 'client-1', accountId: ada, scopes: ['forms:read'], codeHash: 'code-again' },
        tokens('one'),
        0,
        now,
      ),
    ).rejects.toMatchObject({ code: 'P2002' });
    expect(await database.client.oAuthGrant.count()).toBe(1);
    expect((await grants.findCode('code-again'))?.grantId).toBeNull();
  });

  it("ends the account's oldest grants to an application beyond OAUTH_GRANTS_PER_APPLICATION", async () => {
    const first = await grant('one', ada, 'client-1', true, 3);
    await database.client.$executeRaw`
      UPDATE oauth_grants SET created_at = created_at - interval '1 hour' WHERE id = ${first}`;
    const other = await grant('other-app', ada, 'client-2', true, 3);
    const bobs = await grant('bobs', bob, 'client-1', true, 3);
    await grant('two', ada, 'client-1', true, 3);
    await grant('three', ada, 'client-1', true, 3);
    expect(await announcedRevocations()).toEqual([]);
    const newest = await grant('four', ada, 'client-1', true, 3);
    const live = (await grants.listGrants(ada)).map((row) => row.grantId);
    expect(live).toHaveLength(4);
    expect(live).not.toContain(first);
    expect(live).toEqual(expect.arrayContaining([newest, other]));
    expect((await grants.listGrants(bob)).map((row) => row.grantId)).toEqual([bobs]);
    expect(await announcedRevocations()).toEqual([ada]);
    // The ended grant's tokens stop working with it.
    expect(await grants.findRefreshToken('refresh-one')).toMatchObject({
      grant: { revokedAt: now },
    });
  });

  it('keeps the bound when an account authorizes one application many times at once', async () => {
    await Promise.all(
      ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((name) => grant(name, ada, 'client-1', true, 3)),
    );
    expect(await grants.listGrants(ada)).toHaveLength(3);
  });

  it('rotates refresh tokens: each is used once, even by concurrent callers, and the next added to the grant', async () => {
    const grantId = await grant('one');
    const claims = await Promise.all(
      Array.from({ length: 8 }, () => grants.claimRefreshToken('refresh-one', now)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await grants.findRefreshToken('refresh-one'))?.usedAt).toEqual(now);

    await grants.addTokens(grantId, tokens('two'));
    expect(await grants.findRefreshToken('refresh-two')).toMatchObject({ grantId, usedAt: null });
    expect(await grants.findAccessTokenGrant('access-two')).toEqual({ applicationId: 'client-1' });
    expect(await grants.claimRefreshToken('no-such-token', now)).toBe(false);
  });

  it('revokes an access token once, telling the gateways about its account', async () => {
    await grant('one', bob);
    await grants.revokeAccessToken('access-one', now);
    expect(
      (await database.client.oAuthAccessToken.findUnique({ where: { tokenHash: 'access-one' } }))?.revokedAt,
    ).toEqual(now);
    expect(await announcedRevocations()).toEqual([bob]);

    await grants.revokeAccessToken('access-one', new Date(now.getTime() + 1000));
    await grants.revokeAccessToken('no-such-token', now);
    expect(
      (await database.client.oAuthAccessToken.findUnique({ where: { tokenHash: 'access-one' } }))?.revokedAt,
    ).toEqual(now);
    expect(await announcedRevocations()).toEqual([]);
  });

  it("lists the account's live grants only, newest first, with the application's name", async () => {
    const first = await grant('one', ada, 'client-1');
    const second = await grant('two', ada, 'client-2');
    const revoked = await grant('three', ada, 'client-1');
    await grant('bobs', bob, 'client-1');
    await grants.revokeGrant(revoked, now);
    await database.client.$executeRaw`
      UPDATE oauth_grants SET created_at = created_at - interval '1 hour' WHERE id = ${first}`;

    expect(await grants.listGrants(ada)).toEqual([
      {
        grantId: second,
        clientId: 'client-2',
        applicationName: 'App client-2',
        scopes: ['forms:read', 'offline'],
        createdAt: expect.any(String),
      },
      expect.objectContaining({ grantId: first, clientId: 'client-1', applicationName: 'App client-1' }),
    ]);
    expect(await grants.listGrants(developer)).toEqual([]);
  });

  it("revokes only the account's own live grant, once, and its refresh tokens with it", async () => {
    const grantId = await grant('one', ada);
    expect(await grants.revokeAccountGrant(bob, grantId, now)).toBe(false);
    expect(await announcedRevocations()).toEqual([]);

    expect(await grants.revokeAccountGrant(ada, grantId, now)).toBe(true);
    expect(await grants.findRefreshToken('refresh-one')).toMatchObject({ grant: { revokedAt: now } });
    expect(await announcedRevocations()).toEqual([ada]);

    expect(await grants.revokeAccountGrant(ada, grantId, now)).toBe(false);
    expect(await announcedRevocations()).toEqual([]);
  });

  it('revokes a grant by id (a refresh token used twice), telling the gateways once', async () => {
    const grantId = await grant('one', bob);
    await grants.revokeGrant(grantId, now);
    await grants.revokeGrant(grantId, new Date(now.getTime() + 1000));
    await grants.revokeGrant('no-such-grant', now);
    expect(await grants.findRefreshToken('refresh-one')).toMatchObject({ grant: { revokedAt: now } });
    expect(await announcedRevocations()).toEqual([bob]);
  });
});
