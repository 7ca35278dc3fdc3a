import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { RateLimiter } from './rate-limiter';

// Slows password guessing: sign-in attempts are counted per email, whichever
// door they come through (the OAuth page, the HTTP Basic routes). The key is
// the email's hash, so Redis holds no addresses.
@Injectable()
export class SignInThrottle {
  constructor(
    private readonly limiter: RateLimiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  attempt(email: string): Promise<void> {
    return this.limiter.consume(
      `login:${createHash('sha256').update(email).digest('hex')}`,
      { limit: this.config.LOGIN_RATE_LIMIT_ATTEMPTS, windowMs: this.config.LOGIN_RATE_LIMIT_WINDOW_MS },
      'Too many sign-in attempts for this account.',
    );
  }
}
