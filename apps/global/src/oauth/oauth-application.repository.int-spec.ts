import { createHash, randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { consoleClient, tokensRevoked } from '@formline/contracts';
import { ErrorCode } from '@formline/errors';
import {
  listenForAnnouncements,
  testInfra,
  type AnnouncementListener,
  useScratchAccounts,
} from '@formline/testing';
import { ChangeAnnouncer } from '../change-announcer';
import type { GlobalConfig } from '@formline/app-config';
import { OAuthApplicationRepository } from './oauth-application.repository';
import { OAuthGrantRepository } from './oauth-grant.repository';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
// The base addresses the deployment's own clients (the console) are known by.
const deployment = { BASE_URL: 'https://api.example', EU_BASE_URL: 'https://eu.api.example' } as GlobalConfig;

// OAuthApplicationRepository against PostgreSQL and the test profile's NATS:
// an account's applications are its own to list and delete; a delete takes
// the application's codes, grants and tokens with it and tells the gateways;
// a client authenticates with its secret's hash only.
describe('OAuthApplicationRepository against PostgreSQL', () => {
  const accounts = useScratchAccounts({ ada: 'eu', bob: 'us' });
  let announcer: ChangeAnnouncer;
  let listener: AnnouncementListener;
  let applications: OAuthApplicationRepository;
  let ada: string;
  let bob: string;

  beforeAll(async () => {
    announcer = new ChangeAnnouncer(await connect({ servers: testInfra().natsUrl.us }));
    listener = await listenForAnnouncements(testInfra().natsUrl.us, tokensRevoked.subject);
    applications = new OAuthApplicationRepository(accounts.client, announcer, deployment);
  });
  afterAll(async () => {
    await announcer?.close();
    await listener?.close();
  });
  beforeEach(() => ({ ada, bob } = accounts.ids));

  // The accounts whose tokens were announced revoked since the last call.
  const announcedRevocations = async () => {
    const marker = `marker-${randomUUID()}`;
    await announcer.tokensRevoked(marker);
    const heard = await listener.takeUntil((payload) => payload.accountId === marker);
    return heard.map((payload: any) => payload.accountId).filter((id) => id === ada || id === bob);
  };

  const register = (accountId: string, clientId: string, secret = `${clientId}-secret`, maxOfAccount = 0) =>
    applications.create(
      {
        accountId,
        clientId,
        name: `App ${clientId}`,
        redirectUris: [`https://${clientId}.example.com/callback`],
        clientSecretHash: sha256(secret),
      },
      maxOfAccount,
    );

  it('creates an application, shown without its secret, and lists the account’s own newest first', async () => {
    const created = await register(ada, 'client-1');
    expect(created).toEqual({
      clientId: 'client-1',
      name: 'App client-1',
      redirectUris: ['https://client-1.example.com/callback'],
      createdAt: expect.any(String),
    });
    await register(ada, 'client-2');
    await register(bob, 'client-bob');
    expect((await applications.list(ada)).map((app) => app.clientId)).toEqual(['client-2', 'client-1']);
    expect((await applications.list(bob)).map((app) => app.clientId)).toEqual(['client-bob']);
  });

  it('registers within the cap of an account, parallel registrations taking turns', async () => {
    const made = await Promise.all(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => register(ada, `client-${id}`, 'secret', 4)),
    );
    expect(made.filter(Boolean)).toHaveLength(4);
    expect(made.filter((app) => app === undefined)).toHaveLength(2);
    expect(await applications.list(ada)).toHaveLength(4);
    // Another account has a cap of its own.
    expect(await register(bob, 'client-bob', 'secret', 4)).toMatchObject({ clientId: 'client-bob' });
  });

  it('refuses a second application with the same client id', async () => {
    await register(ada, 'client-1');
    await expect(register(bob, 'client-1')).rejects.toMatchObject({ code: 'P2002' });
  });

  it('finds a client by id from any account', async () => {
    await register(ada, 'client-1');
    expect(await applications.findClient('client-1')).toEqual({
      id: 'client-1',
      name: 'App client-1',
      redirectUris: ['https://client-1.example.com/callback'],
      publicClient: false,
    });
    expect(await applications.findClient('no-such-client')).toBeUndefined();
  });

  it('authenticates a client by its secret’s hash, refusing a wrong secret and an unknown client alike', async () => {
    await register(ada, 'client-1', 's3cret');
    expect(await applications.authenticateClient('client-1', sha256('s3cret'))).toMatchObject({
      id: 'client-1',
    });
    for (const [clientId, secret] of [
      ['client-1', 'wrong'],
      ['no-such-client', 's3cret'],
    ]) {
      await expect(applications.authenticateClient(clientId, sha256(secret))).rejects.toMatchObject({
        code: ErrorCode.InvalidClient,
      });
    }
  });

  it("knows the console as a public client at each region's address, and writes its row once for its codes", async () => {
    const expected = {
      id: 'formline-console',
      name: 'Formline console',
      redirectUris: ['https://api.example/console', 'https://eu.api.example/console'],
      publicClient: true,
      scopes: [...consoleClient.scopes],
    };
    expect(await applications.findClient('formline-console')).toEqual(expected);
    await applications.ensureFirstParty('formline-console');
    await applications.ensureFirstParty('formline-console');
    await applications.ensureFirstParty('client-1'); // not the deployment's: nothing written
    const rows = await accounts.client.oAuthApplication.findMany({
      select: { id: true, accountId: true, clientSecretHash: true, redirectUris: true },
    });
    expect(rows).toEqual([
      {
        id: 'formline-console',
        accountId: null,
        clientSecretHash: null,
        redirectUris: expected.redirectUris,
      },
    ]);
    // It is no account's application.
    expect(await applications.list(ada)).toEqual([]);
  });

  it('takes no row without a secret for a public client: only the configuration names those', async () => {
    await register(ada, 'client-1', 's3cret');
    await accounts.client.oAuthApplication.update({
      where: { id: 'client-1' },
      data: { clientSecretHash: null },
    });
    expect(await applications.findClient('client-1')).toMatchObject({ publicClient: false });
    await expect(applications.authenticateClient('client-1', undefined)).rejects.toMatchObject({
      code: ErrorCode.InvalidClient,
    });
  });

  it('authenticates a public client by its id alone, and refuses it with a secret; a confidential one needs its secret', async () => {
    expect(await applications.authenticateClient('formline-console', undefined)).toMatchObject({
      id: 'formline-console',
      publicClient: true,
    });
    await register(ada, 'client-1', 's3cret');
    for (const [clientId, hash] of [
      ['formline-console', sha256('anything')],
      ['client-1', undefined],
      ['no-such-client', undefined],
    ] as const) {
      await expect(applications.authenticateClient(clientId, hash)).rejects.toMatchObject({
        code: ErrorCode.InvalidClient,
      });
    }
  });

  it("deletes only the account's own application, with its codes, grants and tokens, and tells the gateways whose tokens went", async () => {
    await register(ada, 'client-1');
    const grants = new OAuthGrantRepository(accounts.client, announcer);
    await grants.createCode({
      codeHash: 'code-1',
      applicationId: 'client-1',
      accountId: bob,
      redirectUri: 'https://client-1.example.com/callback',
      scopes: ['forms:read'],
      codeChallenge: null,
      expiresAt: new Date(Date.now() + 60_000),
    });
    await grants.createGrant(
      { applicationId: 'client-1', accountId: bob, scopes: ['forms:read'], codeHash: 'code-1' },
      {
        accessTokenHash: 'access-1',
        accessTokenScopes: ['forms:read'],
        accessTokenExpiresAt: new Date(Date.now() + 60_000),
        refreshTokenHash: 'refresh-1',
      },
      0,
      new Date(),
    );

    expect(await applications.delete(bob, 'client-1')).toBe(false);
    expect(await applications.findClient('client-1')).toBeDefined();
    expect(await announcedRevocations()).toEqual([]);

    expect(await applications.delete(ada, 'client-1')).toBe(true);
    expect(await applications.findClient('client-1')).toBeUndefined();
    const db = accounts.client;
    expect(
      await Promise.all([
        db.oAuthAuthorizationCode.count(),
        db.oAuthGrant.count(),
        db.oAuthAccessToken.count(),
        db.oAuthRefreshToken.count(),
      ]),
    ).toEqual([0, 0, 0, 0]);
    // The tokens that stopped working are Bob's, who authorized the
    // application: the gateways drop his cached token checks, not Ada's.
    expect(await announcedRevocations()).toEqual([bob]);

    expect(await applications.delete(ada, 'client-1')).toBe(false);
    expect(await announcedRevocations()).toEqual([]);
  });
});
