import { codeChallengeOf } from '@formline/tokens';
import { ApiClient } from './api.client';
import { SessionStore } from './session.store';
import { SignInFlow } from './sign-in.flow';

// A tab's sessionStorage.
class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

describe("the console's sign-in", () => {
  const origin = 'https://eu.api.example';
  let storage: MemoryStorage;
  let posts: Array<{ path: string; body: URLSearchParams }>;
  let flow: SignInFlow;

  beforeEach(() => {
    storage = new MemoryStorage();
    posts = [];
    const api = new ApiClient(
      (input, init) => {
        posts.push({ path: input, body: new URLSearchParams(init.body as string) });
        const answer = input === '/oauth/token' ? { access_token: 'tfo_new', token_type: 'bearer' } : {};
        return Promise.resolve(new Response(JSON.stringify(answer), { status: 200 }));
      },
      () => flow.token(),
    );
    flow = new SignInFlow(api, new SessionStore(storage), origin);
  });

  const comeBack = async (authorizeUrl: string, answer: Record<string, string>) => {
    const state = new URL(authorizeUrl).searchParams.get('state')!;
    return flow.finish(`?${new URLSearchParams({ state, ...answer }).toString()}`);
  };

  it("goes to this region's sign-in page as the console's public client, with an S256 challenge and a state", async () => {
    const url = new URL(await flow.start());
    expect(`${url.origin}${url.pathname}`).toBe(`${origin}/oauth/authorize`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toEqual({
      response_type: 'code',
      client_id: 'formline-console',
      redirect_uri: `${origin}/console`,
      scope:
        'accounts:read forms:read forms:write themes:read workspaces:read webhooks:read webhooks:write responses:read responses:write',
      state: expect.stringMatching(/^[\w-]{22}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    const pending = JSON.parse(storage.items.get('formline.console.sign-in')!);
    expect(params.code_challenge).toBe(codeChallengeOf(pending.verifier));
    expect(pending.state).toBe(params.state);
  });

  it('exchanges the code with its verifier, keeps the token in the tab, and spends the pending sign-in', async () => {
    const url = await flow.start();
    const { verifier } = JSON.parse(storage.items.get('formline.console.sign-in')!);
    expect(await comeBack(url, { code: 'the-code' })).toEqual({ kind: 'signed-in', token: 'tfo_new' });
    expect(posts[0].path).toBe('/oauth/token');
    expect(Object.fromEntries(posts[0].body)).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: `${origin}/console`,
      client_id: 'formline-console',
      code_verifier: verifier,
    });
    expect(flow.token()).toBe('tfo_new');
    expect(storage.items.get('formline.console.token')).toBe('tfo_new');
    expect(storage.items.has('formline.console.sign-in')).toBe(false);
    // The same answer again (a reload of the address, a replay): nothing is exchanged.
    expect((await comeBack(url, { code: 'the-code' })).kind).toBe('refused');
    expect(posts).toHaveLength(1);
  });

  it('never exchanges a code that comes back with another state', async () => {
    await flow.start();
    expect(await flow.finish('?code=planted&state=not-ours')).toMatchObject({ kind: 'refused' });
    expect(posts).toEqual([]);
  });

  it('says when the person denied, and treats an ordinary visit as none', async () => {
    const url = await flow.start();
    expect(await comeBack(url, { error: 'access_denied' })).toEqual({
      kind: 'refused',
      message: expect.stringContaining('chose not to'),
      key: 'signIn.denied',
    });
    expect(await flow.finish('')).toEqual({ kind: 'none' });
  });

  it('signs out by forgetting the token and revoking it', async () => {
    await comeBack(await flow.start(), { code: 'c' });
    await flow.signOut();
    expect(flow.token()).toBeUndefined();
    expect(storage.items.has('formline.console.token')).toBe(false);
    expect(posts[1].path).toBe('/oauth/revoke');
    expect(Object.fromEntries(posts[1].body)).toEqual({ token: 'tfo_new', client_id: 'formline-console' });
  });

  it('starts signed in when the tab kept a token', () => {
    storage.items.set('formline.console.token', 'tfo_kept');
    const again = new SignInFlow(new ApiClient(fetch, () => undefined), new SessionStore(storage), origin);
    expect(again.token()).toBe('tfo_kept');
  });
});
