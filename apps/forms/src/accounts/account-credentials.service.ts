import { Injectable } from '@nestjs/common';
import type { AccountOwner } from '@formline/contracts';
import { GlobalPrismaClient } from '@formline/db';
import { DomainError, ErrorCode } from '@formline/errors';
import { verifyAgainstNothing, verifyPassword } from '@formline/tokens';

// Checks an account owner's email and password. One answer for an unknown
// email, an account without a password and a wrong password, in the same
// time, so neither the answer nor its delay tells which emails exist.
@Injectable()
export class AccountCredentialsService {
  constructor(private readonly db: GlobalPrismaClient) {}

  async authenticate(email: string, password: string): Promise<AccountOwner> {
    const account = await this.db.account.findUnique({
      where: { email },
      select: { id: true, region: true, passwordHash: true },
    });
    const valid = account?.passwordHash
      ? await verifyPassword(password, account.passwordHash)
      : await verifyAgainstNothing(password);
    if (!account || !valid) {
      throw new DomainError(ErrorCode.AuthenticationFailed, 'Incorrect email or password.');
    }
    return { accountId: account.id, region: account.region };
  }
}
