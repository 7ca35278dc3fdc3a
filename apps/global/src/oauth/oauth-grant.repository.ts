import { Injectable } from '@nestjs/common';
import { type GlobalDb, GlobalPrismaClient } from '@formline/db';
import type { OAuthGrant } from '@formline/contracts';
import { newPublicId } from '@formline/ids';
import { ChangeAnnouncer } from '../change-announcer';

export interface StoredCode {
  applicationId: string;
  accountId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  grantId: string | null;
}

export interface StoredRefreshToken {
  grantId: string;
  usedAt: Date | null;
  createdAt: Date;
  grant: { applicationId: string; scopes: string[]; revokedAt: Date | null };
}

export interface NewTokens {
  accessTokenHash: string;
  accessTokenScopes: string[];
  accessTokenExpiresAt: Date;
  // Absent when the grant has no `offline` scope.
  refreshTokenHash?: string;
}

// Codes, grants and tokens of the OAuth flow, by their hashes. The single-use
// rules are enforced by conditional updates, so two concurrent requests with
// the same code or refresh token cannot both succeed.
@Injectable()
export class OAuthGrantRepository {
  constructor(
    private readonly db: GlobalPrismaClient,
    private readonly announcer: ChangeAnnouncer,
  ) {}

  async createCode(code: Omit<StoredCode, 'usedAt' | 'grantId'> & { codeHash: string }): Promise<void> {
    await this.db.oAuthAuthorizationCode.create({ data: code });
  }

  async findCode(codeHash: string): Promise<StoredCode | undefined> {
    return (await this.db.oAuthAuthorizationCode.findUnique({ where: { codeHash } })) ?? undefined;
  }

  // True for the one caller that uses the code.
  async claimCode(codeHash: string, now: Date): Promise<boolean> {
    const { count } = await this.db.oAuthAuthorizationCode.updateMany({
      where: { codeHash, usedAt: null },
      data: { usedAt: now },
    });
    return count === 1;
  }

  // The grant, its first tokens and the code tied to it, in one transaction.
  // An account that authorizes one application again and again gets a grant
  // each time: beyond `maxOfApplication` of its live grants to that
  // application (0: no bound), the oldest end, their tokens with them, so
  // re-authorizing can never pile up tokens (each has its own request budget).
  async createGrant(
    grant: { applicationId: string; accountId: string; scopes: string[]; codeHash: string },
    tokens: NewTokens,
    maxOfApplication: number,
    now: Date,
  ): Promise<void> {
    const grantId = newPublicId(20);
    const ended = await this.db.$transaction(async (tx) => {
      // One account's grants are made in turn, so parallel authorizations
      // each see the others' grants when they count.
      if (maxOfApplication > 0)
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${grant.accountId} FOR NO KEY UPDATE`;
      await tx.oAuthGrant.create({
        data: {
          id: grantId,
          applicationId: grant.applicationId,
          accountId: grant.accountId,
          scopes: grant.scopes,
        },
      });
      await tx.oAuthAuthorizationCode.update({ where: { codeHash: grant.codeHash }, data: { grantId } });
      for (const write of this.tokenWrites(tx, grantId, tokens)) await write;
      if (maxOfApplication <= 0) return 0;
      return tx.$executeRaw`
        UPDATE oauth_grants SET revoked_at = ${now}
         WHERE id IN (SELECT id FROM oauth_grants
                       WHERE account_id = ${grant.accountId} AND application_id = ${grant.applicationId}
                         AND revoked_at IS NULL AND id <> ${grantId}
                       ORDER BY created_at DESC, id DESC OFFSET ${maxOfApplication - 1})`;
    });
    // The gateways' caches of this account's token checks must forget the ended ones.
    if (ended > 0) await this.announcer.tokensRevoked(grant.accountId);
  }

  async findRefreshToken(tokenHash: string): Promise<StoredRefreshToken | undefined> {
    return (
      (await this.db.oAuthRefreshToken.findUnique({
        where: { tokenHash },
        select: {
          grantId: true,
          usedAt: true,
          createdAt: true,
          grant: { select: { applicationId: true, scopes: true, revokedAt: true } },
        },
      })) ?? undefined
    );
  }

  async claimRefreshToken(tokenHash: string, now: Date): Promise<boolean> {
    const { count } = await this.db.oAuthRefreshToken.updateMany({
      where: { tokenHash, usedAt: null },
      data: { usedAt: now },
    });
    return count === 1;
  }

  async addTokens(grantId: string, tokens: NewTokens): Promise<void> {
    await this.db.$transaction(this.tokenWrites(this.db, grantId, tokens));
  }

  async findAccessTokenGrant(tokenHash: string): Promise<{ applicationId: string } | undefined> {
    const token = await this.db.oAuthAccessToken.findUnique({
      where: { tokenHash },
      select: { grant: { select: { applicationId: true } } },
    });
    return token?.grant;
  }

  async revokeAccessToken(tokenHash: string, now: Date): Promise<void> {
    const { count } = await this.db.oAuthAccessToken.updateMany({
      where: { tokenHash, revokedAt: null },
      data: { revokedAt: now },
    });
    if (count === 0) return;
    const token = await this.db.oAuthAccessToken.findUnique({
      where: { tokenHash },
      select: { grant: { select: { accountId: true } } },
    });
    if (token) await this.announcer.tokensRevoked(token.grant.accountId);
  }

  // The account's live grants, newest first, with the application's name.
  async listGrants(accountId: string): Promise<OAuthGrant[]> {
    const rows = await this.db.oAuthGrant.findMany({
      where: { accountId, revokedAt: null },
      orderBy: { createdAt: 'desc' },
      select: {
        id: true,
        scopes: true,
        createdAt: true,
        application: { select: { id: true, name: true } },
      },
    });
    return rows.map((row) => ({
      grantId: row.id,
      clientId: row.application.id,
      applicationName: row.application.name,
      scopes: row.scopes,
      createdAt: row.createdAt.toISOString(),
    }));
  }

  // Revokes one of the account's live grants; false when it has none by that id.
  async revokeAccountGrant(accountId: string, grantId: string, now: Date): Promise<boolean> {
    const { count } = await this.db.oAuthGrant.updateMany({
      where: { id: grantId, accountId, revokedAt: null },
      data: { revokedAt: now },
    });
    // The gateways' caches of this account's token checks must forget them now.
    if (count === 1) await this.announcer.tokensRevoked(accountId);
    return count === 1;
  }

  // Every token of the grant stops working: access tokens through the grant,
  // refresh tokens because a revoked grant refuses them.
  async revokeGrant(grantId: string, now: Date): Promise<void> {
    const { count } = await this.db.oAuthGrant.updateMany({
      where: { id: grantId, revokedAt: null },
      data: { revokedAt: now },
    });
    if (count === 0) return;
    const grant = await this.db.oAuthGrant.findUnique({
      where: { id: grantId },
      select: { accountId: true },
    });
    if (grant) await this.announcer.tokensRevoked(grant.accountId);
  }

  private tokenWrites(
    db: Pick<GlobalDb.Prisma.TransactionClient, 'oAuthAccessToken' | 'oAuthRefreshToken'>,
    grantId: string,
    tokens: NewTokens,
  ): GlobalDb.Prisma.PrismaPromise<unknown>[] {
    const writes: GlobalDb.Prisma.PrismaPromise<unknown>[] = [
      db.oAuthAccessToken.create({
        data: {
          tokenHash: tokens.accessTokenHash,
          grantId,
          scopes: tokens.accessTokenScopes,
          expiresAt: tokens.accessTokenExpiresAt,
        },
      }),
    ];
    if (tokens.refreshTokenHash) {
      writes.push(
        db.oAuthRefreshToken.create({
          data: { tokenHash: tokens.refreshTokenHash, grantId },
        }),
      );
    }
    return writes;
  }
}
