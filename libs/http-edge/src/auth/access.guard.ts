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
import { TtlCache } from '../cache/ttl-cache';
import { FailedAuthenticationThrottle } from '../rate-limit/failed-authentication.throttle';
import { DomainErrorWithHeaders } from '../errors/domain-error-with-headers';
import { HTTP_EDGE_CONFIG, type HttpEdgeConfig } from '../http-edge.config';
import { type Budget, RateLimiter } from '../rate-limit/rate-limiter';
import { SignInThrottle } from '../rate-limit/sign-in.throttle';
import type { AnonymousBudgetName } from '../rate-limit/anonymous-budget.decorator';
import { SubmissionThrottle } from '../rate-limit/submission.throttle';
import { UploadThrottle } from '../rate-limit/upload.throttle';
import { basicChallenge, bearerChallenge } from './auth-challenge';
import type { AuthenticatedRequest } from './authenticated-request';
import { basicCredentialsFrom } from './basic-credentials';
import { type RouteAccess, routeAccessOf } from './route-access';

const tokenErrors = new Set([ErrorCode.InvalidToken, ErrorCode.TokenExpired, ErrorCode.TokenRevoked]);

// Every request passes here, as early as it can: the access gate
// (access.gate.ts) asks decide() for each routed request at Fastify's
// onRequest stage, before the body is read, so a refused request is answered
// at once and its body never buffered; this guard then only sees that the
// decision was made (it decides itself for a request the gate did not see).
// The route's one access declaration decides:
// - @RequiredScope: a bearer token (personal or OAuth) whose hash the forms
//   service knows (its answer cached, see ReadCache), within its rate limit,
//   holding the scope; a token that failed is remembered as failed for a
//   while, and failures are limited per client address
//   (FailedAuthenticationThrottle);
// - @OwnerCredentials: the account owner's email and password;
// - @ScopeIfAuthenticated: nothing, or a bearer token as for @RequiredScope;
//   without a token, the anonymous budget the route names (@AnonymousBudget);
//   on a route that stores an upload (@UploadBudget), the caller's upload
//   budgets too, reserved from the declared size (UploadThrottle);
// - @Public: nothing.
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly perToken: Budget;
  // Tokens that failed authentication a moment ago, by hash, with why.
  private readonly failedTokens: TtlCache<DomainError>;
  // Tokens found valid within the failures' window, by hash: their address's
  // failed authentications never hold them back, even once their check has
  // left the read cache (a few seconds), though they are checked again. A
  // valid client behind the address of a token guesser (one NAT) is served.
  private readonly validTokens: TtlCache<true>;

  constructor(
    private readonly rpc: RpcClient,
    rateLimiter: RateLimiter,
    private readonly signIns: SignInThrottle,
    private readonly submissions: SubmissionThrottle,
    private readonly cache: ReadCache,
    private readonly failures: FailedAuthenticationThrottle,
    private readonly uploads: UploadThrottle,
    @Inject(HTTP_EDGE_CONFIG) config: HttpEdgeConfig,
  ) {
    // Bounded: made-up tokens are as many as a client cares to make.
    this.failedTokens = new TtlCache(config.AUTH_FAILURE_CACHE_MS, 10_000);
    this.validTokens = new TtlCache(config.AUTH_FAILURE_RATE_LIMIT_WINDOW_MS, 10_000);
    this.perToken = rateLimiter.budget(
      { name: 'token', limit: config.RATE_LIMIT_REQUESTS, windowMs: config.RATE_LIMIT_WINDOW_MS },
      'Too many requests with this token.',
    );
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (request.accessDecided) return true;
    const declared = routeAccessOf(context.getHandler());
    // The boot-time audit already refuses this; never let it become an open door.
    if (declared.length !== 1) {
      throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no single access`);
    }
    return this.decide(request, declared[0]);
  }

  // Synchronous when it can be (a public route, or a token whose check is
  // cached and no rate limit counts): most authenticated requests end here
  // without a promise. Sets request.principal or request.owner, and
  // request.accessDecided once the request may go on.
  decide(request: AuthenticatedRequest, access: RouteAccess): true | Promise<true> {
    const decided = this.check(request, access);
    if (decided === true) {
      request.accessDecided = true;
      return true;
    }
    return decided.then(() => (request.accessDecided = true));
  }

  private check(request: AuthenticatedRequest, access: RouteAccess): true | Promise<true> {
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
      case 'optional-scope': {
        const decided =
          request.headers.authorization !== undefined
            ? this.authenticateToken(request, access.scope)
            : access.anonymousBudget
              ? this.countAnonymous(request, access.anonymousBudget)
              : true;
        if (!access.uploads) return decided;
        // Once the caller is known: a token's uploads count against its account.
        return Promise.resolve(decided).then(() => this.reserveUpload(request));
      }
    }
  }

  private async reserveUpload(request: AuthenticatedRequest): Promise<true> {
    request.uploadReservation = await this.uploads.reserve(request);
    return true;
  }

  // A respondent without a token: its budget per client address and per form.
  private async countAnonymous(request: AuthenticatedRequest, budget: AnonymousBudgetName): Promise<true> {
    const formId = request.params?.form_id ?? '';
    if (budget === 'progress') await this.submissions.admitAnonymousProgress(formId, request.ip);
    else await this.submissions.admitAnonymous(formId, request.ip);
    return true;
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
    const principal = cached ?? (await this.verifyToken(request, tokenHash));
    if (this.perToken.counts) await this.perToken.consume(tokenHash);
    return principal;
  }

  // A token not cached as valid: refused from memory if it failed a moment
  // ago, else asked of the global service, unless its caller's address has
  // failed too often already. Every failure counts against the address.
  private async verifyToken(request: AuthenticatedRequest, tokenHash: string): Promise<AccessTokenPrincipal> {
    const failed = this.failedTokens.get(tokenHash);
    if (failed) {
      await this.failures.failed(request.ip);
      throw invalidToken(failed);
    }
    if (!this.validTokens.get(tokenHash)) await this.failures.admit(request.ip);
    try {
      const principal = await this.cache.principals.getOrLoad(
        tokenHash,
        () => this.rpc.request(verifyAccessToken, { tokenHash }, request.requestId),
        (verified) => (verified.expiresAt ? Date.parse(verified.expiresAt) : null),
      );
      this.validTokens.set(tokenHash, true);
      return principal;
    } catch (error) {
      if (!(error instanceof DomainError && tokenErrors.has(error.code))) throw error;
      this.failedTokens.set(tokenHash, error);
      await this.failures.failed(request.ip);
      throw invalidToken(error);
    }
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
