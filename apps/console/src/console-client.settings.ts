// The console as an OAuth 2.0 client of the region that serves it: the
// deployment's public client (no secret; PKCE), asking for the scopes of its
// screens. The same values as consoleClient in libs/contracts, which the
// global service registers (a spec checks they agree): written here because
// that library's schemas would come into the bundle with anything imported
// from it.
export const consoleClientId = 'formline-console';
export const consolePath = '/console';
export const consoleScopes = [
  'accounts:read',
  'forms:read',
  'forms:write',
  'themes:read',
  'workspaces:read',
  'webhooks:read',
  'webhooks:write',
  'responses:read',
  'responses:write',
];

/** Where the console is served on this origin, and receives its code. */
export function consoleRedirectUri(origin: string): string {
  return `${origin}${consolePath}`;
}
