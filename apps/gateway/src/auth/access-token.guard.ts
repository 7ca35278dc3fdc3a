import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type AccessTokenPrincipal, verifyAccessToken } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { hashAccessToken } from '@formline/tokens';
import { bearerTokenFrom } from './bearer-token';
import { REQUIRED_SCOPE, type Scope } from './required-scope.decorator';

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  principal?: AccessTokenPrincipal;
}

// Every request is authenticated: the token's hash is checked by the forms
// service (which owns accounts) and the account behind it rides on the request.
// Then the scope the route declares must be among the token's scopes.
@Injectable()
export class AccessTokenGuard implements CanActivate {
  constructor(
    private readonly rpc: RpcClient,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requiredScope = this.reflector.get<Scope | undefined>(REQUIRED_SCOPE, context.getHandler());
    // A route without a declared scope is a programming error, not an open door.
    if (!requiredScope)
      throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no scope`);
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerTokenFrom(request.headers.authorization);
    if (!token) {
      throw new DomainError(
        ErrorCode.AuthenticationFailed,
        'Authentication credentials not found on the Request Headers.',
      );
    }
    const principal = await this.rpc.request(verifyAccessToken, { tokenHash: hashAccessToken(token) });
    if (!principal.scopes.includes(requiredScope)) {
      throw new DomainError(ErrorCode.Forbidden, `This token lacks the scope ${requiredScope}.`);
    }
    request.principal = principal;
    return true;
  }
}
