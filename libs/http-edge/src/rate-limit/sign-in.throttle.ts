import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import { HTTP_EDGE_CONFIG, type HttpEdgeConfig } from '../http-edge.config';
import { type Budget, RateLimiter } from './rate-limiter';

// Slows password guessing, whichever door a sign-in comes through (the OAuth
// consent page, the HTTP Basic routes). Every attempt is counted before the
// password is checked, as one atomic increment per budget: N parallel guesses
// cost N, and the ones over the budget never reach the check. Two budgets: per
// email (guessing one account's password) and per client address (trying many
// accounts from one place). A sign-in that succeeds gets its count back, so
// a person who signs in often is never locked out; only failures (and
// refusals) stay counted. The email key is its hash: Redis holds no addresses
// of people. Every check, right or wrong, also counts against a budget of
// password checks (per email, per address) that nothing gives back: each is
// a scrypt hash in the global service, and a client with the right password
// (minting tokens in a loop) must not spend the region's CPU without bound.
@Injectable()
export class SignInThrottle {
  private readonly perEmail: Budget;
  private readonly perAddress: Budget;
  private readonly checksPerEmail: Budget;
  private readonly checksPerAddress: Budget;

  constructor(limiter: RateLimiter, @Inject(HTTP_EDGE_CONFIG) config: HttpEdgeConfig) {
    const windowMs = config.LOGIN_RATE_LIMIT_WINDOW_MS;
    this.perEmail = limiter.budget(
      { name: 'login-email', limit: config.LOGIN_RATE_LIMIT_ATTEMPTS, windowMs },
      'Too many failed sign-ins for this account.',
    );
    this.perAddress = limiter.budget(
      { name: 'login-address', limit: config.LOGIN_RATE_LIMIT_ADDRESS_ATTEMPTS, windowMs },
      'Too many failed sign-ins from this address.',
    );
    const checksWindowMs = config.PASSWORD_CHECKS_WINDOW_MS;
    this.checksPerEmail = limiter.budget(
      { name: 'password-email', limit: config.PASSWORD_CHECKS_PER_EMAIL, windowMs: checksWindowMs },
      'Too many password checks for this account.',
    );
    this.checksPerAddress = limiter.budget(
      { name: 'password-address', limit: config.PASSWORD_CHECKS_PER_ADDRESS, windowMs: checksWindowMs },
      'Too many password checks from this address.',
    );
  }

  // Runs a sign-in from `clientAddress` once its budgets allow it.
  async attempt<T>(email: string, clientAddress: string, signIn: () => Promise<T>): Promise<T> {
    const emailKey = createHash('sha256').update(email).digest('hex');
    await this.checksPerAddress.consume(clientAddress);
    await this.checksPerEmail.consume(emailKey);
    await this.perAddress.consume(clientAddress);
    await this.perEmail.consume(emailKey);
    let failed = false;
    try {
      return await signIn();
    } catch (error) {
      failed = error instanceof DomainError && error.code === ErrorCode.AuthenticationFailed;
      throw error;
    } finally {
      if (!failed) await Promise.all([this.perAddress.refund(clientAddress), this.perEmail.refund(emailKey)]);
    }
  }
}
