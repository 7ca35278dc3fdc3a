import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { OAuthApplication } from '@formline/contracts';
import { GlobalPrismaClient } from '@formline/db';
import { DomainError, ErrorCode } from '@formline/errors';
import { ChangeAnnouncer } from '../change-announcer';

export interface NewOAuthApplication {
  accountId: string;
  clientId: string;
  name: string;
  redirectUris: string[];
  clientSecretHash: string;
}

export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
}

const fields = { id: true, name: true, redirectUris: true, createdAt: true } as const;

@Injectable()
export class OAuthApplicationRepository {
  constructor(
    private readonly db: GlobalPrismaClient,
    private readonly announcer: ChangeAnnouncer,
  ) {}

  async create(application: NewOAuthApplication): Promise<OAuthApplication> {
    const { clientId, ...rest } = application;
    return present(
      await this.db.oAuthApplication.create({ data: { id: clientId, ...rest }, select: fields }),
    );
  }

  async list(accountId: string): Promise<OAuthApplication[]> {
    const rows = await this.db.oAuthApplication.findMany({
      where: { accountId },
      orderBy: { createdAt: 'desc' },
      select: fields,
    });
    return rows.map(present);
  }

  // Cascades to the application's codes, grants and tokens: all stop working.
  // The tokens are those of the accounts that authorized the application, so
  // the gateways are told about each of them (their cached token checks are
  // by the token's account). The application's row is locked first: no grant
  // can be added between reading its holders and the delete.
  async delete(accountId: string, clientId: string): Promise<boolean> {
    const holders = await this.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM oauth_applications WHERE id = ${clientId} AND account_id = ${accountId} FOR UPDATE`;
      if (locked.length === 0) return undefined;
      const grants = await tx.oAuthGrant.findMany({
        where: { applicationId: clientId },
        distinct: ['accountId'],
        select: { accountId: true },
      });
      await tx.oAuthApplication.delete({ where: { id: clientId } });
      return grants.map((grant) => grant.accountId);
    });
    if (holders === undefined) return false;
    await Promise.all(holders.map((holder) => this.announcer.tokensRevoked(holder)));
    return true;
  }

  async findClient(clientId: string): Promise<OAuthClient | undefined> {
    return (
      (await this.db.oAuthApplication.findUnique({
        where: { id: clientId },
        select: { id: true, name: true, redirectUris: true },
      })) ?? undefined
    );
  }

  // Client authentication at the token and revocation endpoints (RFC 6749 2.3.1).
  async authenticateClient(clientId: string, clientSecretHash: string): Promise<OAuthClient> {
    const row = await this.db.oAuthApplication.findUnique({
      where: { id: clientId },
      select: { id: true, name: true, redirectUris: true, clientSecretHash: true },
    });
    const expected = Buffer.from(row?.clientSecretHash ?? '0'.repeat(64), 'hex');
    const matches = timingSafeEqual(expected, Buffer.from(clientSecretHash, 'hex'));
    if (!row || !matches) throw new DomainError(ErrorCode.InvalidClient, 'Client authentication failed.');
    return { id: row.id, name: row.name, redirectUris: row.redirectUris };
  }
}

function present(row: {
  id: string;
  name: string;
  redirectUris: string[];
  createdAt: Date;
}): OAuthApplication {
  return {
    clientId: row.id,
    name: row.name,
    redirectUris: row.redirectUris,
    createdAt: row.createdAt.toISOString(),
  };
}
