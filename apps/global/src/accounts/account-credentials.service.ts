import { Injectable } from '@nestjs/common';
import type { AccountOwner } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { verifyAgainstNothing, verifyPassword } from '@formline/tokens';
import { AccountRepository } from './account.repository';
import { PasswordCheckLimiter } from './password-check.limiter';

// Checks an account owner's email and password. One answer for an unknown
// email, an account without a password and a wrong password, in the same
// time, so neither the answer nor its delay tells which emails exist. The
// hash runs in its turn of the password check queue, bounded per process.
@Injectable()
export class AccountCredentialsService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly checks: PasswordCheckLimiter,
  ) {}

  async authenticate(email: string, password: string): Promise<AccountOwner> {
    const account = await this.accounts.findCredentialsByEmail(email);
    const passwordHash = account?.passwordHash;
    const valid = await this.checks.run(() =>
      passwordHash ? verifyPassword(password, passwordHash) : verifyAgainstNothing(password),
    );
    if (!account || !valid) {
      throw new DomainError(ErrorCode.AuthenticationFailed, 'Incorrect email or password.');
    }
    return { accountId: account.id, region: account.region };
  }
}
