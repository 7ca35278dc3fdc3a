import { z } from 'zod';

// Typeform's scope names. A token's scopes are the same on both base addresses:
// using the account region's address needs no other scope. `offline` is not
// an API permission: granted through OAuth, it lets the application have a
// refresh token.
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
export const scopeSchema = z.enum(scopes);

// The scopes that guard API operations: what a personal access token can hold.
export const apiScopes = scopes.filter((scope) => scope !== 'offline');
export const apiScopeSchema = z.enum(
  apiScopes as [Exclude<Scope, 'offline'>, ...Exclude<Scope, 'offline'>[]],
);

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}
