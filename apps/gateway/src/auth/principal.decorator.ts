import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AccessTokenPrincipal } from '@formline/contracts';
import type { AuthenticatedRequest } from './access-token.guard';

// The account behind the request's token, set by AccessTokenGuard.
export const Principal = createParamDecorator(
  (_: unknown, context: ExecutionContext): AccessTokenPrincipal => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (!principal) throw new Error('Principal requested on a route without AccessTokenGuard');
    return principal;
  },
);
