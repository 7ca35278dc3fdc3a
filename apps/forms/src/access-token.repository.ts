import { Injectable } from '@nestjs/common';
import { GlobalPrismaClient } from '@formline/db';
import type { Region } from '@formline/contracts';

export interface StoredAccessToken {
  accountId: string;
  region: Region;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
}

@Injectable()
export class AccessTokenRepository {
  constructor(private readonly db: GlobalPrismaClient) {}

  async findByHash(tokenHash: string): Promise<StoredAccessToken | undefined> {
    const token = await this.db.personalAccessToken.findUnique({
      where: { tokenHash },
      select: {
        accountId: true,
        scopes: true,
        expiresAt: true,
        revokedAt: true,
        account: { select: { region: true } },
      },
    });
    if (!token) return undefined;
    return { ...token, region: token.account.region };
  }
}
