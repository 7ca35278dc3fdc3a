import { Inject, Injectable } from '@nestjs/common';
import { HTTP_EDGE_CONFIG, type HttpEdgeConfig } from '../http-edge.config';
import { type Budget, RateLimiter } from './rate-limiter';

// Made-up tokens cost a call to the global service each: a client address
// that has failed authentication too often in a window is refused 429 before
// any further token of its is checked. Only failures are counted, and a token
// found valid within the window never reaches this (AccessGuard), so valid
// callers are never slowed by it.
@Injectable()
export class FailedAuthenticationThrottle {
  private readonly perAddress: Budget;

  constructor(limiter: RateLimiter, @Inject(HTTP_EDGE_CONFIG) config: HttpEdgeConfig) {
    this.perAddress = limiter.budget(
      {
        name: 'auth-failures-address',
        limit: config.AUTH_FAILURE_RATE_LIMIT_PER_ADDRESS,
        windowMs: config.AUTH_FAILURE_RATE_LIMIT_WINDOW_MS,
      },
      'Too many failed authentications from this address.',
    );
  }

  /** Refuses (429) an address over its budget of failures; counts nothing. */
  admit(clientAddress: string): Promise<void> {
    return this.perAddress.refuseIfSpent(clientAddress);
  }

  /** Counts one failure; refuses (429) the one that goes over the budget. */
  failed(clientAddress: string): Promise<void> {
    return this.perAddress.consume(clientAddress);
  }
}
