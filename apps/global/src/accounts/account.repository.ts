import { Injectable } from '@nestjs/common';
import { GlobalPrismaClient, type GlobalDb } from '@formline/db';

// Accounts (table `accounts`) as the global service reads them: by id for the
// profile, by email for a sign-in. Accounts are created by the admin command
// (libs/admin), not through the API.
@Injectable()
export class AccountRepository {
  constructor(private readonly db: GlobalPrismaClient) {}

  findById(id: string): Promise<GlobalDb.Account | null> {
    return this.db.account.findUnique({ where: { id } });
  }

  findCredentialsByEmail(email: string) {
    return this.db.account.findUnique({
      where: { email },
      select: { id: true, region: true, passwordHash: true },
    });
  }
}
