import { Injectable } from '@nestjs/common';
import { GlobalPrismaClient } from '@formline/db';
import type { Region } from '@formline/contracts';

// A bearer token as the guard needs it, whichever kind it is.
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

  // Personal access tokens first (the common case for scripts), then OAuth
  // access tokens. Both are looked up by hash; an OAuth token is revoked when
  // it or its grant is.
  async findByHash(tokenHash: string): Promise<StoredAccessToken | undefined> {
    const personal = await this.db.personalAccessToken.findUnique({
      where: { tokenHash },
      select: {
        accountId: true,
        scopes: true,
        expiresAt: true,
        revokedAt: true,
        account: { select: { region: true } },
      },
    });
    if (personal) return { ...personal, region: personal.account.region };
    const oauth = await this.db.oAuthAccessToken.findUnique({
      where: { tokenHash },
      select: {
        scopes: true,
        expiresAt: true,
        revokedAt: true,
        grant: { select: { accountId: true, revokedAt: true, account: { select: { region: true } } } },
      },
    });
    if (!oauth) return undefined;
    return {
      accountId: oauth.grant.accountId,
      region: oauth.grant.account.region,
      scopes: oauth.scopes,
      expiresAt: oauth.expiresAt,
      revokedAt: oauth.revokedAt ?? oauth.grant.revokedAt,
    };
  }
}
