import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { type AccessTokenPrincipal, verifyAccessToken } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { RpcClient } from '@formline/messaging';
import { hashAccessToken } from '@formline/tokens';
import { bearerTokenFrom } from './bearer-token';

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  principal?: AccessTokenPrincipal;
}

// Every request is authenticated: the token's hash is checked by the forms
// service (which owns accounts) and the account behind it rides on the request.
@Injectable()
export class AccessTokenGuard implements CanActivate {
  constructor(private readonly rpc: RpcClient) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerTokenFrom(request.headers.authorization);
    if (!token) {
      throw new DomainError(
        ErrorCode.AuthenticationFailed,
        'Authentication credentials not found on the Request Headers.',
      );
    }
    request.principal = await this.rpc.request(verifyAccessToken, { tokenHash: hashAccessToken(token) });
    return true;
  }
}
