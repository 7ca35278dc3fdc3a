import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import {
  type AccessTokenPrincipal,
  type AccountOwner,
  emailSchema,
  type Scope,
  verifyAccessToken,
  verifyAccountCredentials,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { bearerTokenFrom, hashAccessToken, isBearerTokenShape } from '@formline/tokens';
import { ReadCache } from '../cache/read-cache';
import { DomainErrorWithHeaders } from '../errors/domain-error-with-headers';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { type Budget, RateLimiter } from '../rate-limit/rate-limiter';
import { SignInThrottle } from '../rate-limit/sign-in.throttle';
import { basicChallenge, bearerChallenge } from './auth-challenge';
import type { AuthenticatedRequest } from './authenticated-request';
import { basicCredentialsFrom } from './basic-credentials';
import { routeAccessOf } from './route-access';

const tokenErrors = new Set([ErrorCode.InvalidToken, ErrorCode.TokenExpired, ErrorCode.TokenRevoked]);

// Every request passes here. The route's one access declaration decides:
// - @RequiredScope: a bearer token (personal or OAuth) whose hash the forms
//   service knows (its answer cached, see ReadCache), within its rate limit,
//   holding the scope;
// - @OwnerCredentials: the account owner's email and password;
// - @ScopeIfAuthenticated: nothing, or a bearer token as for @RequiredScope;
// - @Public: nothing.
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly perToken: Budget;

  constructor(
    private readonly rpc: RpcClient,
    rateLimiter: RateLimiter,
    private readonly signIns: SignInThrottle,
    private readonly cache: ReadCache,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.perToken = rateLimiter.budget(
      { name: 'token', limit: config.RATE_LIMIT_REQUESTS, windowMs: config.RATE_LIMIT_WINDOW_MS },
      'Too many requests with this token.',
    );
  }

  // Synchronous when it can be (a public route, or a token whose check is
  // cached and no rate limit counts): Nest awaits nothing for a boolean, and
  // most authenticated requests end here without a promise.
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const declared = routeAccessOf(context.getHandler());
    // The boot-time audit already refuses this; never let it become an open door.
    if (declared.length !== 1) {
      throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no single access`);
    }
    const access = declared[0];
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    switch (access.kind) {
      case 'public':
        return true;
      case 'owner':
        return this.authenticateOwner(request).then((owner) => {
          request.owner = owner;
          return true;
        });
      case 'scope':
        return this.authenticateToken(request, access.scope);
      case 'optional-scope':
        return request.headers.authorization === undefined || this.authenticateToken(request, access.scope);
    }
  }

  // Sets request.principal: at once from a cached check when no rate limit
  // counts, else once the check (and the count) is done.
  private authenticateToken(request: AuthenticatedRequest, scope: Scope): true | Promise<true> {
    const token = bearerTokenFrom(request.headers.authorization);
    if (!token) {
      throw new DomainErrorWithHeaders(
        ErrorCode.AuthenticationFailed,
        'Authentication credentials not found on the Request Headers.',
        { 'WWW-Authenticate': bearerChallenge() },
      );
    }
    if (!isBearerTokenShape(token))
      throw invalidToken(new DomainError(ErrorCode.InvalidToken, 'The access token is not valid.'));
    const tokenHash = hashAccessToken(token);
    const cached = this.cache.principals.get(tokenHash);
    if (cached && !this.perToken.counts) {
      request.principal = withScope(cached, scope);
      return true;
    }
    return this.checkToken(request, tokenHash, cached).then((principal) => {
      request.principal = withScope(principal, scope);
      return true;
    });
  }

  private async checkToken(
    request: AuthenticatedRequest,
    tokenHash: string,
    cached: AccessTokenPrincipal | undefined,
  ): Promise<AccessTokenPrincipal> {
    const principal =
      cached ??
      (await this.cache.principals
        .getOrLoad(
          tokenHash,
          () => this.rpc.request(verifyAccessToken, { tokenHash }, request.requestId),
          (verified) => (verified.expiresAt ? Date.parse(verified.expiresAt) : null),
        )
        .catch((error: unknown) => {
          throw error instanceof DomainError && tokenErrors.has(error.code) ? invalidToken(error) : error;
        }));
    if (this.perToken.counts) await this.perToken.consume(tokenHash);
    return principal;
  }

  private async authenticateOwner(request: AuthenticatedRequest): Promise<AccountOwner> {
    const credentials = basicCredentialsFrom(request.headers.authorization);
    const challenge = { 'WWW-Authenticate': basicChallenge() };
    const email = emailSchema.safeParse(credentials?.user);
    if (!credentials || !email.success || !credentials.password) {
      throw new DomainErrorWithHeaders(
        ErrorCode.AuthenticationFailed,
        "This endpoint takes the account owner's email and password (HTTP Basic).",
        challenge,
      );
    }
    const owner = { email: email.data, password: credentials.password };
    return this.signIns
      .attempt(owner.email, request.ip, () =>
        this.rpc.request(verifyAccountCredentials, owner, request.requestId),
      )
      .catch((error: unknown) => {
        throw error instanceof DomainError && error.code === ErrorCode.AuthenticationFailed
          ? DomainErrorWithHeaders.from(error, challenge)
          : error;
      });
  }
}

// The principal, if its token holds the route's scope.
function withScope(principal: AccessTokenPrincipal, scope: Scope): AccessTokenPrincipal {
  if (!principal.scopes.includes(scope)) {
    const description = `This token lacks the scope ${scope}.`;
    throw new DomainErrorWithHeaders(ErrorCode.InsufficientScope, description, {
      'WWW-Authenticate': bearerChallenge('insufficient_scope', description, scope),
    });
  }
  return principal;
}

function invalidToken(error: DomainError): DomainErrorWithHeaders {
  return DomainErrorWithHeaders.from(error, {
    'WWW-Authenticate': bearerChallenge('invalid_token', error.description),
  });
}
