import { SetMetadata } from '@nestjs/common';
import type { Scope } from '@formline/contracts';

export { scopes, type Scope } from '@formline/contracts';

export const REQUIRED_SCOPE = 'requiredScope';

// The scope an endpoint needs, declared on its handler; AccessGuard enforces it
// against the bearer token's scopes. Every route declares exactly one kind of
// access (this, @OwnerCredentials() or @Public()); the gateway refuses to start otherwise.
export const RequiredScope = (scope: Exclude<Scope, 'offline'>) => SetMetadata(REQUIRED_SCOPE, scope);
