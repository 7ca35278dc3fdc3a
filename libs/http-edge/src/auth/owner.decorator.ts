import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AccountOwner } from '@formline/contracts';
import type { AuthenticatedRequest } from './authenticated-request';

// The account whose owner signed in with email and password, set by AccessGuard on @OwnerCredentials routes.
export const Owner = createParamDecorator((_: unknown, context: ExecutionContext): AccountOwner => {
  const owner = context.switchToHttp().getRequest<AuthenticatedRequest>().owner;
  if (!owner) throw new Error('Owner requested on a route without @OwnerCredentials');
  return owner;
});
