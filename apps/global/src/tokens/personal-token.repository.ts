import { Injectable } from '@nestjs/common';
import type { PersonalToken } from '@formline/contracts';
import { GlobalPrismaClient } from '@formline/db';
import { newPublicId } from '@formline/ids';
import { ChangeAnnouncer } from '../change-announcer';

export interface NewPersonalToken {
  accountId: string;
  name: string;
  scopes: string[];
  expiresAt?: Date;
  tokenHash: string;
}

const fields = { id: true, name: true, scopes: true, createdAt: true, expiresAt: true } as const;

@Injectable()
export class PersonalTokenRepository {
  constructor(
    private readonly db: GlobalPrismaClient,
    private readonly announcer: ChangeAnnouncer,
  ) {}

  // Creates the token unless its account already holds `maxLive` live ones
  // (0: no cap); undefined then. The account's row is locked while counting,
  // so parallel creations can never all slip under the cap.
  async create(token: NewPersonalToken, maxLive: number, now: Date): Promise<PersonalToken | undefined> {
    const row = await this.db.$transaction(async (tx) => {
      if (maxLive > 0) {
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${token.accountId} FOR UPDATE`;
        const live = await tx.personalAccessToken.count({ where: liveTokensOf(token.accountId, now) });
        if (live >= maxLive) return undefined;
      }
      return tx.personalAccessToken.create({ data: { id: newPublicId(16), ...token }, select: fields });
    });
    return row && present(row);
  }

  async listLive(accountId: string, now: Date): Promise<PersonalToken[]> {
    const rows = await this.db.personalAccessToken.findMany({
      where: liveTokensOf(accountId, now),
      orderBy: { createdAt: 'desc' },
      select: fields,
    });
    return rows.map(present);
  }

  // Scoped by account: another account's token is simply not found.
  async revoke(accountId: string, tokenId: string, now: Date): Promise<boolean> {
    const { count } = await this.db.personalAccessToken.updateMany({
      where: { id: tokenId, accountId, revokedAt: null },
      data: { revokedAt: now },
    });
    if (count === 1) await this.announcer.tokensRevoked(accountId);
    return count === 1;
  }
}

// Neither revoked nor expired.
function liveTokensOf(accountId: string, now: Date) {
  return { accountId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
}

function present(row: {
  id: string;
  name: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date | null;
}): PersonalToken {
  return { ...row, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt?.toISOString() ?? null };
}
