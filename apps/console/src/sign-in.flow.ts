import { englishTexts, type TextKey, type TextParams } from './console.texts';
import type { ApiClient } from './api.client';
import { consoleClientId, consoleRedirectUri, consoleScopes } from './console-client.settings';
import { challengeOf, randomUrlSafe } from './pkce.crypto';
import type { SessionStore } from './session.store';

export type SignInOutcome =
  | { kind: 'signed-in'; token: string }
  | { kind: 'refused'; message: string; key: TextKey; params?: TextParams }
  /** An ordinary visit: no sign-in was coming back. */
  | { kind: 'none' };

const bounded = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

// Signing in and out, as any OAuth client of the API does (RFC 6749 4.1 with
// RFC 7636): to the region's own sign-in page with a PKCE challenge and a
// state, back to /console with a code, which the token endpoint exchanges
// for a token with the verifier; signing out revokes the token (RFC 7009).
// The token lives in memory and in the tab's sessionStorage (SessionStore).
export class SignInFlow {
  private current: string | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly store: SessionStore,
    private readonly origin: string,
  ) {
    this.current = store.token();
  }

  token(): string | undefined {
    return this.current;
  }

  /** The sign-in page's address for a new sign-in; its verifier and state wait in the tab. */
  async start(): Promise<string> {
    const verifier = randomUrlSafe(32);
    const state = randomUrlSafe(16);
    this.store.keepPending({ verifier, state });
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: consoleClientId,
      redirect_uri: consoleRedirectUri(this.origin),
      scope: consoleScopes.join(' '),
      state,
      code_challenge: await challengeOf(verifier),
      code_challenge_method: 'S256',
    });
    return `${this.origin}/oauth/authorize?${query.toString()}`;
  }

  /** The console's address as the sign-in page sent the browser back to it (its query). */
  async finish(search: string): Promise<SignInOutcome> {
    const params = new URLSearchParams(search);
    const code = params.get('code');
    const error = params.get('error');
    if (code === null && error === null) return { kind: 'none' };
    const pending = this.store.takePending();
    // A code this tab did not ask for (an attacker's, RFC 6749 10.12) is never exchanged.
    if (!pending || params.get('state') !== pending.state) {
      return refused('signIn.foreign');
    }
    if (error !== null) {
      return error === 'access_denied'
        ? refused('signIn.denied')
        : refused('signIn.refused', { why: bounded(params.get('error_description') ?? error) });
    }
    const answer = await this.api.postForm<{ access_token?: unknown }>('/oauth/token', {
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: consoleRedirectUri(this.origin),
      client_id: consoleClientId,
      code_verifier: pending.verifier,
    });
    if (typeof answer?.access_token !== 'string') {
      return refused('signIn.noToken');
    }
    this.keep(answer.access_token);
    return { kind: 'signed-in', token: answer.access_token };
  }

  /**
   * Forgets the token here, then revokes it at the server. The person asked
   * to leave: the console is signed out even when the server cannot be told
   * (the error says so).
   */
  async signOut(): Promise<void> {
    const token = this.current;
    this.forget();
    if (token) await this.api.postForm('/oauth/revoke', { token, client_id: consoleClientId });
  }

  /** The server refused the token (revoked, expired): nothing to revoke, only to forget. */
  forget(): void {
    this.current = undefined;
    this.store.forgetToken();
  }

  private keep(token: string): void {
    this.current = token;
    this.store.keepToken(token);
  }
}

// A refusal in words: the key for the console's language, and the English
// text for whoever reads the outcome without texts.
function refused(key: TextKey, params?: TextParams): SignInOutcome {
  return { kind: 'refused', message: englishTexts.t(key, params), key, ...(params ? { params } : {}) };
}
