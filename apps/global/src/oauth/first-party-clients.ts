import { regionBaseUrls } from '@formline/config';
import { consoleClient, consoleRedirectUri } from '@formline/contracts';

export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
  /** No secret (a browser app): it must use PKCE, and gets no refresh token. */
  publicClient: boolean;
  /** The scopes it may ask for; any, when unset (an account's application). */
  scopes?: readonly string[];
}

// The deployment's own OAuth clients, known from its configuration rather
// than registered by an account: the console, a public client whose redirect
// URIs are the console's address on each region's base address (the same on
// every global process of both regions, which share the global database). The
// row the codes and grants point to is written at the first sign-in
// (OAuthApplicationRepository.ensureFirstParty), so no boot step depends on
// the database.
export function firstPartyClients(config: { BASE_URL: string; EU_BASE_URL: string }): OAuthClient[] {
  const baseUrls = regionBaseUrls(config);
  return [
    {
      id: consoleClient.clientId,
      name: consoleClient.name,
      redirectUris: [...new Set([consoleRedirectUri(baseUrls.us), consoleRedirectUri(baseUrls.eu)])],
      publicClient: true,
      scopes: consoleClient.scopes,
    },
  ];
}
