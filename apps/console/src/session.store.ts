// What the console keeps in the tab's sessionStorage (docs/decisions/console.md):
// the access token once signed in, so a reload keeps the sign-in and closing
// the tab forgets it; and, only between leaving for the sign-in page and
// coming back, the PKCE verifier and the state of that sign-in. Nothing goes
// to localStorage or cookies: another tab, or a later visit, starts signed out.
export interface PendingSignIn {
  verifier: string;
  state: string;
}

const tokenKey = 'formline.console.token';
const pendingKey = 'formline.console.sign-in';

export class SessionStore {
  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>) {}

  token(): string | undefined {
    const token = this.read(tokenKey);
    return token && token.length <= 200 ? token : undefined;
  }

  keepToken(token: string): void {
    this.write(tokenKey, token);
  }

  forgetToken(): void {
    this.remove(tokenKey);
  }

  keepPending(pending: PendingSignIn): void {
    this.write(pendingKey, JSON.stringify(pending));
  }

  /** The sign-in under way, once: read and forgotten, so a code is spent at most once. */
  takePending(): PendingSignIn | undefined {
    const stored = this.read(pendingKey);
    this.remove(pendingKey);
    if (!stored || stored.length > 1000) return undefined;
    try {
      const value = JSON.parse(stored) as Partial<PendingSignIn> | null;
      return typeof value?.verifier === 'string' && typeof value.state === 'string'
        ? { verifier: value.verifier, state: value.state }
        : undefined;
    } catch {
      return undefined;
    }
  }

  // Storage may be refused (a browser's privacy settings): the console then
  // works until the next reload, and says nothing it cannot keep.
  private read(key: string): string | undefined {
    try {
      return this.storage.getItem(key) ?? undefined;
    } catch {
      return undefined;
    }
  }

  private write(key: string, value: string): void {
    try {
      this.storage.setItem(key, value);
    } catch {
      // see read()
    }
  }

  private remove(key: string): void {
    try {
      this.storage.removeItem(key);
    } catch {
      // see read()
    }
  }
}
