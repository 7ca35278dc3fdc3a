import { randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { tokensRevoked } from '@formline/contracts';
import {
  listenForAnnouncements,
  testInfra,
  type AnnouncementListener,
  useScratchAccounts,
} from '@formline/testing';
import { ChangeAnnouncer } from '../change-announcer';
import { PersonalTokenRepository, type NewPersonalToken } from './personal-token.repository';

const now = new Date('2026-06-01T12:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

// PersonalTokenRepository against PostgreSQL and the test profile's NATS: the
// cap on an account's live tokens holds under parallel creations and counts
// neither revoked nor expired ones; listing and revoking are the account's
// own, and a revocation tells the gateways.
describe('PersonalTokenRepository against PostgreSQL', () => {
  const accounts = useScratchAccounts({ ada: 'eu', bob: 'us' });
  let announcer: ChangeAnnouncer;
  let listener: AnnouncementListener;
  let tokens: PersonalTokenRepository;
  let ada: string;
  let bob: string;

  beforeAll(async () => {
    announcer = new ChangeAnnouncer(await connect({ servers: testInfra().natsUrl.us }));
    listener = await listenForAnnouncements(testInfra().natsUrl.us, tokensRevoked.subject);
    tokens = new PersonalTokenRepository(accounts.client, announcer);
  });
  afterAll(async () => {
    await announcer?.close();
    await listener?.close();
  });
  beforeEach(() => ({ ada, bob } = accounts.ids));

  const announcedRevocations = async () => {
    const marker = `marker-${randomUUID()}`;
    await announcer.tokensRevoked(marker);
    const heard = await listener.takeUntil((payload) => payload.accountId === marker);
    return heard.map((payload: any) => payload.accountId).filter((id) => id === ada || id === bob);
  };

  const token = (accountId: string, name: string, expiresAt?: Date): NewPersonalToken => ({
    accountId,
    name,
    scopes: ['forms:read'],
    expiresAt,
    tokenHash: `hash-${accountId}-${name}`,
  });

  it('creates a token, shown without its hash', async () => {
    expect(await tokens.create(token(ada, 'ci', later(60_000)), 0, now)).toEqual({
      id: expect.any(String),
      name: 'ci',
      scopes: ['forms:read'],
      createdAt: expect.any(String),
      expiresAt: later(60_000).toISOString(),
    });
    await expect(tokens.create(token(ada, 'ci'), 0, now)).rejects.toMatchObject({ code: 'P2002' });
  });

  it('holds the cap on live tokens under parallel creations', async () => {
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) => tokens.create(token(ada, `t${i}`), 3, now)),
    );
    expect(created.filter(Boolean)).toHaveLength(3);
    expect(await tokens.listLive(ada, now)).toHaveLength(3);
    // Another account's cap is its own.
    expect(await tokens.create(token(bob, 'ci'), 3, now)).toBeDefined();
  });

  it('counts neither revoked nor expired tokens against the cap, and 0 is no cap', async () => {
    const revoked = await tokens.create(token(ada, 'revoked'), 2, now);
    await tokens.create(token(ada, 'expired', later(1000)), 2, now);
    expect(await tokens.create(token(ada, 'refused'), 2, now)).toBeUndefined();

    expect(await tokens.revoke(ada, revoked!.id, now)).toBe(true);
    expect(await tokens.create(token(ada, 'after-revoke'), 2, later(2000))).toBeDefined();
    // The expired one no longer counts either.
    expect(await tokens.create(token(ada, 'after-expiry'), 2, later(2000))).toBeDefined();
    expect(await tokens.create(token(ada, 'refused-again'), 2, later(2000))).toBeUndefined();
    expect(await tokens.create(token(ada, 'uncapped'), 0, later(2000))).toBeDefined();
  });

  it("lists the account's live tokens newest first", async () => {
    await tokens.create(token(ada, 'old'), 0, now);
    await tokens.create(token(ada, 'expiring', later(1000)), 0, now);
    const revoked = await tokens.create(token(ada, 'revoked'), 0, now);
    await tokens.revoke(ada, revoked!.id, now);
    await tokens.create(token(ada, 'new'), 0, now);
    await tokens.create(token(bob, 'bobs'), 0, now);

    expect((await tokens.listLive(ada, now)).map((listed) => listed.name)).toEqual([
      'new',
      'expiring',
      'old',
    ]);
    expect((await tokens.listLive(ada, later(1000))).map((listed) => listed.name)).toEqual(['new', 'old']);
  });

  it("revokes only the account's own live token, once, telling the gateways", async () => {
    const created = await tokens.create(token(ada, 'ci'), 0, now);
    expect(await tokens.revoke(bob, created!.id, now)).toBe(false);
    expect(await announcedRevocations()).toEqual([]);

    expect(await tokens.revoke(ada, created!.id, now)).toBe(true);
    expect(await announcedRevocations()).toEqual([ada]);
    expect(
      await accounts.client.personalAccessToken.findUnique({ where: { id: created!.id } }),
    ).toMatchObject({
      revokedAt: now,
    });

    expect(await tokens.revoke(ada, created!.id, later(1000))).toBe(false);
    expect(await announcedRevocations()).toEqual([]);
  });
});
