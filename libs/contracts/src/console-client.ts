// The owner's console (apps/console, served by each gateway at /console) is a
// first-party OAuth 2.0 client of the deployment: a public client (a browser
// keeps no secret), so it must use PKCE, and it gets no refresh token. The
// global service knows it from each deployment's base addresses; the console
// asks for the scopes its screens use, and nothing beyond.
export const consoleClient = {
  clientId: 'formline-console',
  name: 'Formline console',
  path: '/console',
  scopes: [
    'accounts:read',
    'forms:read',
    'forms:write',
    'themes:read',
    'workspaces:read',
    'webhooks:read',
    'webhooks:write',
    'responses:read',
    'responses:write',
  ],
} as const;

/** Where the console of the region at `baseUrl` (no trailing slash) receives its code. */
export function consoleRedirectUri(baseUrl: string): string {
  return `${baseUrl}${consoleClient.path}`;
}
