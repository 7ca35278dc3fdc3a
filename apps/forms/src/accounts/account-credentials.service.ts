import { Injectable } from '@nestjs/common';
import type { AccountOwner } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { verifyAgainstNothing, verifyPassword } from '@formline/tokens';
import { AccountRepository } from './account.repository';

// Checks an account owner's email and password. One answer for an unknown
// email, an account without a password and a wrong password, in the same
// time, so neither the answer nor its delay tells which emails exist.
@Injectable()
export class AccountCredentialsService {
  constructor(private readonly accounts: AccountRepository) {}

  async authenticate(email: string, password: string): Promise<AccountOwner> {
    const account = await this.accounts.findCredentialsByEmail(email);
    const valid = account?.passwordHash
      ? await verifyPassword(password, account.passwordHash)
      : await verifyAgainstNothing(password);
    if (!account || !valid) {
      throw new DomainError(ErrorCode.AuthenticationFailed, 'Incorrect email or password.');
    }
    return { accountId: account.id, region: account.region };
  }
}
