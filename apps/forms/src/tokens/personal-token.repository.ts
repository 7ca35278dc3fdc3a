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

  async create(token: NewPersonalToken): Promise<PersonalToken> {
    const row = await this.db.personalAccessToken.create({
      data: { id: newPublicId(16), ...token },
      select: fields,
    });
    return present(row);
  }

  async listLive(accountId: string, now: Date): Promise<PersonalToken[]> {
    const rows = await this.db.personalAccessToken.findMany({
      where: { accountId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
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

function present(row: {
  id: string;
  name: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date | null;
}): PersonalToken {
  return { ...row, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt?.toISOString() ?? null };
}
