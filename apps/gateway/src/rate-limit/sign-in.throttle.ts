import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@formline/errors';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { RateLimiter } from './rate-limiter';

// Slows password guessing: failed sign-ins are counted per email, whichever
// door they come through (the OAuth page, the HTTP Basic routes), and once an
// email has used up its window every attempt is refused until it ends. Only
// failures count, so a person who signs in often is never locked out. The key
// is the email's hash, so Redis holds no addresses.
@Injectable()
export class SignInThrottle {
  constructor(
    private readonly limiter: RateLimiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  // Runs a sign-in; counts it if the credentials were wrong.
  async attempt<T>(email: string, signIn: () => Promise<T>): Promise<T> {
    const key = `login:${createHash('sha256').update(email).digest('hex')}`;
    const policy = {
      limit: this.config.LOGIN_RATE_LIMIT_ATTEMPTS,
      windowMs: this.config.LOGIN_RATE_LIMIT_WINDOW_MS,
    };
    await this.limiter.refuseIfSpent(key, policy, 'Too many failed sign-ins for this account.');
    try {
      return await signIn();
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.AuthenticationFailed) {
        await this.limiter.count(key, policy);
      }
      throw error;
    }
  }
}
