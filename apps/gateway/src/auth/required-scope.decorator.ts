import { SetMetadata } from '@nestjs/common';

// Typeform's scope names. A token's scopes are the same on both base addresses (SPEC 5.5).
export const scopes = [
  'accounts:read',
  'forms:read',
  'forms:write',
  'images:read',
  'images:write',
  'themes:read',
  'themes:write',
  'responses:read',
  'responses:write',
  'webhooks:read',
  'webhooks:write',
  'workspaces:read',
  'workspaces:write',
  'offline',
] as const;
export type Scope = (typeof scopes)[number];

export const REQUIRED_SCOPE = 'requiredScope';

// The scope an endpoint needs, declared on its handler; AccessTokenGuard enforces it.
// Every authenticated route must carry one: the guard refuses routes that do not.
export const RequiredScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);
