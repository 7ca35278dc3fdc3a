import {
  callApi,
  openAuthorizePage,
  pkcePair,
  postForm,
  submitConsent,
  useTestRegions,
} from '@formline/testing';

// The console's OAuth client over HTTP, as the console's browser code drives
// it: the deployment's public client, which no account registered, has no
// secret and is held to PKCE: a code without a verifier, or with a wrong
// one, is refused; no refresh token; its redirect URI is the console's
// address on each region; sign-out revokes with the client id alone.
describe("the console's public OAuth client", () => {
  const { regions, accounts } = useTestRegions({
    name: 'oauth-console-client',
    apps: ['gateway', 'global'],
    accounts: { owner: { region: 'eu', password: 'owner-password-1' } },
  });
  const { owner } = accounts;
  const clientId = 'formline-console';
  const base = (region: 'us' | 'eu') => regions.baseUrl(region);
  const consoleAddress = (region: 'us' | 'eu') => `${base(region)}/console`;

  const authorizeUrl = (region: 'us' | 'eu', params: Record<string, string | undefined>) => {
    const url = new URL(`${base(region)}/oauth/authorize`);
    const all = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: consoleAddress(region),
      scope: 'accounts:read forms:read workspaces:read',
      state: 'state-1',
      ...params,
    };
    for (const [name, value] of Object.entries(all))
      if (value !== undefined) url.searchParams.set(name, value);
    return url.toString();
  };

  async function code(region: 'us' | 'eu', challenge: string): Promise<string> {
    const page = await openAuthorizePage(
      authorizeUrl(region, { code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain('Formline console');
    const answer = await submitConsent(page, {
      email: owner.email,
      password: owner.password,
      decision: 'allow',
    });
    expect(answer.status).toBe(303);
    expect(`${answer.location!.origin}${answer.location!.pathname}`).toBe(consoleAddress(region));
    return answer.location!.searchParams.get('code')!;
  }

  const exchange = (region: 'us' | 'eu', params: Record<string, string | undefined>) =>
    postForm(`${base(region)}/oauth/token`, {
      grant_type: 'authorization_code',
      redirect_uri: consoleAddress(region),
      client_id: clientId,
      ...params,
    });

  it('refuses a sign-in without a PKCE challenge, or asking for a refresh token, before any password', async () => {
    for (const [params, error] of [
      [{}, 'invalid_request'],
      [
        { scope: 'forms:read offline', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' },
        'invalid_scope',
      ],
    ] as const) {
      const page = await openAuthorizePage(authorizeUrl('us', params));
      expect(page.status).toBe(302);
      const location = new URL(page.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(consoleAddress('us'));
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe('state-1');
    }
    // Only the console's own addresses are its redirect URIs.
    const elsewhere = await openAuthorizePage(
      authorizeUrl('us', {
        redirect_uri: 'http://127.0.0.1:9/console',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(elsewhere.status).toBe(400);
  });

  it('refuses the console a scope its screens do not use, and issues no code', async () => {
    const page = await openAuthorizePage(
      authorizeUrl('us', {
        scope: 'forms:read workspaces:write',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(page.status).toBe(200);
    const answer = await submitConsent(page, {
      email: owner.email,
      password: owner.password,
      decision: 'allow',
    });
    expect(answer.status).toBe(400);
    expect(answer.location).toBeUndefined();
    expect(answer.html).toContain('may not ask for workspaces:write');
  });

  it('exchanges a code only with its verifier, without a secret, and gives no refresh token', async () => {
    const pkce = pkcePair();
    const issued = await code('us', pkce.challenge);

    const withoutVerifier = await exchange('us', { code: issued });
    expect(withoutVerifier.status).toBe(400);
    expect(withoutVerifier.body).toMatchObject({ error: 'invalid_grant', code: 'INVALID_GRANT' });
    const wrongVerifier = await exchange('us', { code: issued, code_verifier: pkcePair().verifier });
    expect(wrongVerifier.status).toBe(400);
    expect(wrongVerifier.body).toMatchObject({ error: 'invalid_grant' });
    // A public client has no secret: one sent is refused, whatever it is.
    const withSecret = await exchange('us', {
      code: issued,
      code_verifier: pkce.verifier,
      client_secret: 'tfs_x',
    });
    expect(withSecret.status).toBe(401);
    expect(withSecret.body).toMatchObject({ error: 'invalid_client' });

    const token = await exchange('us', { code: issued, code_verifier: pkce.verifier });
    expect(token.status).toBe(200);
    expect(token.body).toEqual({
      access_token: expect.stringMatching(/^tfo_/),
      token_type: 'bearer',
      expires_in: expect.any(Number),
      scope: 'accounts:read forms:read workspaces:read',
    });
  });

  it('works from the EU address as from the default one, and the token on both; sign-out revokes it', async () => {
    const pkce = pkcePair();
    const token = await exchange('eu', {
      code: await code('eu', pkce.challenge),
      code_verifier: pkce.verifier,
    });
    expect(token.status).toBe(200);
    const accessToken: string = token.body.access_token;
    for (const region of ['us', 'eu'] as const) {
      const forms = await callApi(`${base(region)}/forms`, { token: accessToken });
      expect(forms.status).toBe(200);
      expect(forms.body.items.map((form: { id: string }) => form.id)).toContain(owner.formId);
    }
    // The console is the deployment's, no account's application.
    const applications = await fetch(`${base('us')}/oauth/applications`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${owner.email}:${owner.password}`).toString('base64')}`,
      },
    });
    expect(((await applications.json()) as { items: unknown[] }).items).toEqual([]);

    const revoked = await postForm(`${base('eu')}/oauth/revoke`, { token: accessToken, client_id: clientId });
    expect(revoked.status).toBe(200);
    const after = await callApi(`${base('eu')}/forms`, { token: accessToken });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('TOKEN_REVOKED');
  });

  it('answers the console and its files on both addresses, public, under a strict policy', async () => {
    for (const region of ['us', 'eu'] as const) {
      const page = await fetch(consoleAddress(region));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      // Only the builder's preview frames a page, and only one of its own origin.
      expect(page.headers.get('content-security-policy')).toContain("frame-src 'self';");
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await page.text();
      const script = /src="(\/console\/assets\/console\.[0-9a-f]{16}\.js)"/.exec(html)![1];
      const asset = await fetch(`${base(region)}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await fetch(`${base(region)}/console/assets/console.0000000000000000.js`)).status).toBe(404);
    }
  });
});
