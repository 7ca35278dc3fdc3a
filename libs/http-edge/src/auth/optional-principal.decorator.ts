import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AccessTokenPrincipal } from '@formline/contracts';
import type { AuthenticatedRequest } from './authenticated-request';

// The account behind the bearer token, if the caller sent one (@ScopeIfAuthenticated routes).
export const OptionalPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): AccessTokenPrincipal | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().principal,
);
