import { SetMetadata } from '@nestjs/common';
import type { Scope } from '@formline/contracts';

export const OPTIONAL_SCOPE = 'optionalScope';

// An endpoint open to anyone that also takes a bearer token: respondents
// submit to a public form without one, while a private form needs a token of
// its owner with this scope. A token that is sent is checked like any other.
export const ScopeIfAuthenticated = (scope: Scope) => SetMetadata(OPTIONAL_SCOPE, scope);
