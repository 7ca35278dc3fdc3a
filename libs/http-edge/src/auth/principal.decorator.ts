import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AccessTokenPrincipal } from '@formline/contracts';
import type { AuthenticatedRequest } from './authenticated-request';

// The account behind the request's bearer token, set by AccessGuard on @RequiredScope routes.
export const Principal = createParamDecorator(
  (_: unknown, context: ExecutionContext): AccessTokenPrincipal => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (!principal) throw new Error('Principal requested on a route without @RequiredScope');
    return principal;
  },
);
