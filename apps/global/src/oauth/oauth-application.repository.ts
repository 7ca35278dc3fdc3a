import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { OAuthApplication } from '@formline/contracts';
import { GlobalPrismaClient } from '@formline/db';
import { DomainError, ErrorCode } from '@formline/errors';
import { ChangeAnnouncer } from '../change-announcer';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { firstPartyClients, type OAuthClient } from './first-party-clients';

export type { OAuthClient } from './first-party-clients';

export interface NewOAuthApplication {
  accountId: string;
  clientId: string;
  name: string;
  redirectUris: string[];
  clientSecretHash: string;
}

const fields = { id: true, name: true, redirectUris: true, createdAt: true } as const;

@Injectable()
export class OAuthApplicationRepository {
  private readonly firstParty: OAuthClient[];

  constructor(
    private readonly db: GlobalPrismaClient,
    private readonly announcer: ChangeAnnouncer,
    @Inject(GLOBAL_CONFIG) config: GlobalConfig,
  ) {
    this.firstParty = firstPartyClients(config);
  }

  // Registers the application unless its account already holds `maxOfAccount`
  // (0: no cap); undefined then. The account's row is locked while counting,
  // so parallel registrations can never all slip under the cap.
  async create(
    application: NewOAuthApplication,
    maxOfAccount: number,
  ): Promise<OAuthApplication | undefined> {
    const { clientId, ...rest } = application;
    const row = await this.db.$transaction(async (tx) => {
      if (maxOfAccount > 0) {
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${application.accountId} FOR NO KEY UPDATE`;
        const held = await tx.oAuthApplication.count({ where: { accountId: application.accountId } });
        if (held >= maxOfAccount) return undefined;
      }
      return tx.oAuthApplication.create({ data: { id: clientId, ...rest }, select: fields });
    });
    return row && present(row);
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

  // The deployment's own clients as its configuration says, whatever a row holds.
  async findClient(clientId: string): Promise<OAuthClient | undefined> {
    const firstParty = this.firstParty.find((client) => client.id === clientId);
    if (firstParty) return firstParty;
    const row = await this.db.oAuthApplication.findUnique({
      where: { id: clientId },
      select: { id: true, name: true, redirectUris: true, clientSecretHash: true },
    });
    return row ? asClient(row) : undefined;
  }

  // The row a first-party client's codes and grants point to, written (or
  // brought up to date with the configuration) before its first code. Never
  // over an account's application of the same id (theirs are 32 hex digits).
  async ensureFirstParty(clientId: string): Promise<void> {
    const client = this.firstParty.find((candidate) => candidate.id === clientId);
    if (!client) return;
    await this.db.$executeRaw`
      INSERT INTO oauth_applications (id, name, redirect_uris)
      VALUES (${client.id}, ${client.name}, ${client.redirectUris})
      ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, redirect_uris = EXCLUDED.redirect_uris
      WHERE oauth_applications.account_id IS NULL
        AND (oauth_applications.name, oauth_applications.redirect_uris)
            IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.redirect_uris)`;
  }

  // Client authentication at the token and revocation endpoints (RFC 6749
  // 2.3.1): a confidential client by its secret; a public client has none
  // and must send none (RFC 6749 2.1), its codes being bound by PKCE instead.
  async authenticateClient(clientId: string, clientSecretHash: string | undefined): Promise<OAuthClient> {
    const refused = new DomainError(ErrorCode.InvalidClient, 'Client authentication failed.');
    const firstParty = this.firstParty.find((client) => client.id === clientId);
    const row = firstParty
      ? undefined
      : await this.db.oAuthApplication.findUnique({
          where: { id: clientId },
          select: { id: true, name: true, redirectUris: true, clientSecretHash: true },
        });
    const client = firstParty ?? (row ? asClient(row) : undefined);
    if (client?.publicClient) {
      if (clientSecretHash !== undefined) throw refused;
      return client;
    }
    // Compared in constant time, and against a dummy when the client is unknown.
    const expected = Buffer.from(row?.clientSecretHash ?? '0'.repeat(64), 'hex');
    const matches =
      clientSecretHash !== undefined && timingSafeEqual(expected, Buffer.from(clientSecretHash, 'hex'));
    if (!client || !matches) throw refused;
    return client;
  }
}

// An account's application: always a confidential client. The deployment's
// public clients are known from its configuration (firstParty), never from a
// row, so a row that lost its secret some other way (nothing in the database
// forbids it) is authenticated by no secret rather than by none.
function asClient(row: { id: string; name: string; redirectUris: string[] }): OAuthClient {
  return { id: row.id, name: row.name, redirectUris: row.redirectUris, publicClient: false };
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
