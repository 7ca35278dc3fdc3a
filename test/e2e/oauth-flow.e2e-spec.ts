import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hashAccessToken } from '@formline/tokens';
import {
  basicAuthorization,
  callApi,
  openAuthorizePage,
  pkcePair,
  postForm,
  submitConsent,
  testInfra,
  useTestRegions,
} from '@formline/testing';

const redirectUri = 'http://127.0.0.1:9/callback';

// The token endpoint's answer: tokens on success, RFC 6749 error fields otherwise.
interface TokenAnswer {
  status: number;
  headers: Headers;
  body: {
    access_token: string;
    refresh_token: string;
    scope: string;
    error?: string;
    code?: string;
  };
}

// The OAuth 2.0 authorization code flow over HTTP, as a third-party
// application and a person with a browser drive it: register the application,
// open {base_url}/oauth/authorize, sign in and consent, exchange the code
// (with PKCE), call the API on both base addresses, refresh, revoke. Then no
// secret of the run may be found in clear in the database or the apps' logs.
describe('OAuth 2.0 authorization code flow', () => {
  const logName = 'oauth-flow';
  // OAuth is the gateway's and the global service's (accounts, applications, grants).
  const { db, regions, accounts } = useTestRegions({
    name: logName,
    apps: ['gateway', 'global'],
    // Verbose logs: the inspection at the end reads everything the apps say.
    extraEnv: { LOG_LEVEL: 'verbose' },
    accounts: {
      developer: { region: 'us', password: 'developer-password-1' },
      person: { region: 'eu', password: 'person-password-2' },
    },
  });
  const { developer, person } = accounts;
  // Every secret this run sees, for the final inspection.
  const secrets = new Set<string>();
  let formId: string;
  let client: { client_id: string; client_secret: string };

  const us = (route: string) => `${regions.baseUrl('us')}${route}`;
  const eu = (route: string) => `${regions.baseUrl('eu')}${route}`;
  const clientAuth = () => ({ client_id: client.client_id, client_secret: client.client_secret });

  function authorizeUrl(params: Record<string, string | undefined>): string {
    const url = new URL(us('/oauth/authorize'));
    const all = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: 'forms:read accounts:read offline',
      state: 'state-123',
      ...params,
    };
    for (const [name, value] of Object.entries(all))
      if (value !== undefined) url.searchParams.set(name, value);
    return url.toString();
  }

  // Authorize and consent; the code that comes back on the redirect.
  async function authorize(params: Record<string, string | undefined> = {}): Promise<string> {
    const page = await openAuthorizePage(authorizeUrl(params));
    expect(page.status).toBe(200);
    const answer = await submitConsent(page, { ...person, decision: 'allow' });
    expect(answer.status).toBe(303);
    const code = answer.location?.searchParams.get('code');
    if (!code) throw new Error(`no code in ${answer.location?.toString()}`);
    secrets.add(code);
    return code;
  }

  async function exchange(
    code: string,
    extra: Record<string, string | undefined> = {},
  ): Promise<TokenAnswer> {
    const response = await postForm(us('/oauth/token'), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      ...clientAuth(),
      ...extra,
    });
    for (const name of ['access_token', 'refresh_token'] as const) {
      if (typeof response.body?.[name] === 'string') secrets.add(response.body[name]);
    }
    return response;
  }

  async function refresh(refreshToken: string, extra: Record<string, string> = {}): Promise<TokenAnswer> {
    const response = await postForm(us('/oauth/token'), {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...clientAuth(),
      ...extra,
    });
    for (const name of ['access_token', 'refresh_token'] as const) {
      if (typeof response.body?.[name] === 'string') secrets.add(response.body[name]);
    }
    return response;
  }

  const readForm = (base: (route: string) => string, token: string) =>
    callApi(base(`/forms/${formId}`), { token });

  beforeAll(() => {
    secrets.add(developer.password).add(person.password);
    formId = person.formId;
  });

  it("registers an application with the owner's email and password; the secret is shown once", async () => {
    const created = await callApi(us('/oauth/applications'), {
      method: 'POST',
      headers: basicAuthorization(developer.email, developer.password),
      body: { name: 'Survey Sync', redirect_uris: [redirectUri] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      client_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      client_secret: expect.stringMatching(/^tfs_/),
      name: 'Survey Sync',
      redirect_uris: [redirectUri],
      created_at: expect.any(String),
    });
    client = created.body;
    secrets.add(client.client_secret);

    const listed = await callApi(eu('/oauth/applications'), {
      headers: basicAuthorization(developer.email, developer.password),
    });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      {
        client_id: client.client_id,
        name: 'Survey Sync',
        redirect_uris: [redirectUri],
        created_at: expect.any(String),
      },
    ]);
    expect(listed.text).not.toContain(client.client_secret);
  });

  it('refuses to register a redirect URI that is not https (or http on loopback)', async () => {
    const response = await callApi(us('/oauth/applications'), {
      method: 'POST',
      headers: basicAuthorization(developer.email, developer.password),
      body: { name: 'Bad', redirect_uris: ['http://evil.example/callback'] },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.details[0].field).toBe('redirect_uris[0]');
  });

  it('runs the whole flow: consent, code, token, API on both base addresses, refresh, revoke', async () => {
    const pkce = pkcePair();
    secrets.add(pkce.verifier);

    // The page: the application's name, the scopes in words, a form posting back.
    const page = await openAuthorizePage(
      authorizeUrl({ code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.html).toContain('Survey Sync');
    expect(page.html).toContain('See your forms');
    expect(page.cookie).toMatch(/^formline_oauth_csrf=/);
    expect(page.fields).toMatchObject({
      client_id: client.client_id,
      state: 'state-123',
      csrf_token: expect.any(String),
    });

    const consent = await submitConsent(page, { ...person, decision: 'allow' });
    expect(consent.status).toBe(303);
    expect(`${consent.location!.origin}${consent.location!.pathname}`).toBe(redirectUri);
    expect(consent.location!.searchParams.get('state')).toBe('state-123');
    const code = consent.location!.searchParams.get('code')!;
    secrets.add(code);

    const token = await exchange(code, { code_verifier: pkce.verifier });
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
    expect(token.body).toEqual({
      access_token: expect.stringMatching(/^tfo_/),
      token_type: 'bearer',
      expires_in: 604800,
      refresh_token: expect.stringMatching(/^tfr_/),
      scope: 'forms:read accounts:read offline',
    });

    // An EU account, authorized at {base_url} as every account is: its token works on both addresses.
    const fromUs = await readForm(us, token.body.access_token);
    const fromEu = await readForm(eu, token.body.access_token);
    expect(fromUs.status).toBe(200);
    expect(fromEu.status).toBe(200);
    expect(fromEu.text).toBe(fromUs.text);
    expect(fromUs.body._links.responses).toBe(eu(`/forms/${formId}/responses`));

    // Refresh: a new pair; the used refresh token is spent.
    const refreshed = await refresh(token.body.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(token.body.access_token);
    expect(refreshed.body.refresh_token).not.toBe(token.body.refresh_token);
    expect((await readForm(eu, refreshed.body.access_token)).status).toBe(200);

    // Revoke the new access token: refused at once, with its own code.
    const revoked = await postForm(us('/oauth/revoke'), {
      token: refreshed.body.access_token,
      ...clientAuth(),
    });
    expect(revoked.status).toBe(200);
    const afterRevoke = await readForm(us, refreshed.body.access_token);
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body).toEqual({ code: 'TOKEN_REVOKED', description: expect.any(String) });
    expect(afterRevoke.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="formline", error="invalid_token"/,
    );

    // Revoke the refresh token: the whole grant ends, the first access token too.
    expect(
      (await postForm(us('/oauth/revoke'), { token: refreshed.body.refresh_token, ...clientAuth() })).status,
    ).toBe(200);
    expect((await readForm(us, token.body.access_token)).body.code).toBe('TOKEN_REVOKED');
    const refreshAfterRevoke = await refresh(refreshed.body.refresh_token);
    expect(refreshAfterRevoke.status).toBe(400);
    expect(refreshAfterRevoke.body.error).toBe('invalid_grant');
  });

  it('gives no refresh token without the offline scope, and accepts client authentication by HTTP Basic', async () => {
    const code = await authorize({ scope: 'forms:read' });
    const response = await postForm(
      us('/oauth/token'),
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
      basicAuthorization(client.client_id, client.client_secret),
    );
    expect(response.status).toBe(200);
    secrets.add(String(response.body.access_token));
    expect(response.body.refresh_token).toBeUndefined();
    expect(response.body.scope).toBe('forms:read');
  });

  it('refuses a scope the token was not granted, with 403 INSUFFICIENT_SCOPE', async () => {
    const token = await exchange(await authorize({ scope: 'accounts:read' }));
    const response = await readForm(us, token.body.access_token);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      description: expect.stringContaining('forms:read'),
    });
    expect(response.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope".*scope="forms:read"/,
    );
  });

  it('refuses a code_verifier that does not match the code_challenge (PKCE)', async () => {
    const pkce = pkcePair();
    const code = await authorize({ code_challenge: pkce.challenge, code_challenge_method: 'S256' });
    const wrong = await exchange(code, { code_verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'INVALID_GRANT', error: 'invalid_grant' });
    const missing = await exchange(code);
    expect(missing.body.error).toBe('invalid_grant');
    // Without a challenge at authorization, a verifier at the token endpoint is a downgrade: refused.
    const noChallenge = await exchange(await authorize(), { code_verifier: pkce.verifier });
    expect(noChallenge.body.error).toBe('invalid_grant');
  });

  it('refuses an unregistered redirect URI on a page, never redirecting to it', async () => {
    const page = await openAuthorizePage(authorizeUrl({ redirect_uri: 'https://attacker.example/steal' }));
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(page.html).toContain('redirect_uri is not registered');
    const unknownClient = await openAuthorizePage(authorizeUrl({ client_id: 'nope' }));
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.headers.get('location')).toBeNull();
  });

  it('refuses a code exchanged with another redirect URI than the one authorized', async () => {
    const code = await authorize();
    const response = await exchange(code, { redirect_uri: 'http://127.0.0.1:9/other' });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
  });

  it('refuses a code used twice, and revokes what the first use gave', async () => {
    const code = await authorize();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const second = await exchange(code);
    expect(second.body.error).toBe('invalid_grant');
    expect((await readForm(us, first.body.access_token)).body.code).toBe('TOKEN_REVOKED');
  });

  it('treats a refresh token used twice as stolen: the grant is revoked', async () => {
    const token = await exchange(await authorize());
    const refreshed = await refresh(token.body.refresh_token);
    expect(refreshed.status).toBe(200);
    const replay = await refresh(token.body.refresh_token);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await readForm(us, refreshed.body.access_token)).body.code).toBe('TOKEN_REVOKED');
    expect((await refresh(refreshed.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('narrows scopes on refresh, never widens them', async () => {
    const token = await exchange(await authorize());
    const narrowed = await refresh(token.body.refresh_token, { scope: 'accounts:read' });
    expect(narrowed.body.scope).toBe('accounts:read');
    expect((await readForm(us, narrowed.body.access_token)).status).toBe(403);
    const wider = await refresh(narrowed.body.refresh_token, { scope: 'forms:write' });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
  });

  it('refuses an expired access token with TOKEN_EXPIRED', async () => {
    const token = await exchange(await authorize());
    await db.oAuthAccessToken.update({
      where: { tokenHash: hashAccessToken(token.body.access_token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const response = await readForm(eu, token.body.access_token);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('TOKEN_EXPIRED');
  });

  it('sends the client back with access_denied when the person denies', async () => {
    const page = await openAuthorizePage(authorizeUrl({}));
    const answer = await submitConsent(page, { decision: 'deny' });
    expect(answer.status).toBe(303);
    expect(answer.location!.searchParams.get('error')).toBe('access_denied');
    expect(answer.location!.searchParams.get('state')).toBe('state-123');
    expect(answer.location!.searchParams.get('code')).toBeNull();
  });

  it('sends the client back with invalid_scope for an unknown scope', async () => {
    const page = await openAuthorizePage(authorizeUrl({ scope: 'forms:read forms:delete' }));
    expect(page.status).toBe(302);
    const location = new URL(page.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('state')).toBe('state-123');
  });

  it('shows the form again on a wrong password, and refuses a post without its cookie', async () => {
    const page = await openAuthorizePage(authorizeUrl({}));
    const wrong = await submitConsent(page, { email: person.email, password: 'not-it', decision: 'allow' });
    expect(wrong.status).toBe(400);
    expect(wrong.location).toBeUndefined();
    expect(wrong.html).toContain('Incorrect email or password.');
    const crossSite = await submitConsent(page, { ...person, decision: 'allow', cookie: null });
    expect(crossSite.status).toBe(403);
    expect(crossSite.location).toBeUndefined();
  });

  it('refuses a wrong client secret with 401 invalid_client', async () => {
    const code = await authorize();
    const response = await exchange(code, { client_secret: 'tfs_wrong' });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: 'INVALID_CLIENT', error: 'invalid_client' });
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
    const unsupported = await postForm(us('/oauth/token'), { grant_type: 'password', ...clientAuth() });
    expect(unsupported.body.error).toBe('unsupported_grant_type');
  });

  it('serves the authorization page and the token endpoint on the EU address too', async () => {
    const page = await openAuthorizePage(
      authorizeUrl({}).replace(regions.baseUrl('us'), regions.baseUrl('eu')),
    );
    expect(page.status).toBe(200);
    const consent = await submitConsent(page, { ...person, decision: 'allow' });
    const code = consent.location!.searchParams.get('code')!;
    secrets.add(code);
    const token = await postForm(eu('/oauth/token'), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      ...clientAuth(),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken } = token.body as TokenAnswer['body'];
    secrets.add(accessToken).add(refreshToken);
    expect((await readForm(us, accessToken)).status).toBe(200);
  });

  it('keeps no secret in clear: not in the database, not in the logs', async () => {
    // A personal access token too, made through the API.
    const pat = await callApi(us('/tokens'), {
      method: 'POST',
      headers: basicAuthorization(person.email, person.password),
      body: { name: 'inspection', scopes: ['forms:read'] },
    });
    expect(pat.status).toBe(201);
    const patToken = String(pat.body.token);
    secrets.add(patToken);
    expect((await readForm(us, patToken)).status).toBe(200);
    expect(secrets.size).toBeGreaterThan(20);

    const tables = await db.$queryRaw<{ table_name: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`;
    let dump = '';
    for (const { table_name } of tables) {
      const rows = await db.$queryRawUnsafe<{ row: string }[]>(
        `SELECT t::text AS row FROM "${table_name}" t`,
      );
      dump += rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain(hashAccessToken(patToken)); // the hashes are there, so the dump is real
    const logDir = path.join(testInfra().dataDir, 'logs', logName);
    const logs = readdirSync(logDir)
      .map((file) => readFileSync(path.join(logDir, file), 'utf8'))
      .join('\n');
    expect(logs).toContain('global (eu) listening');

    for (const secret of secrets) {
      expect({ secret, inDatabase: dump.includes(secret) }).toEqual({ secret, inDatabase: false });
      expect({ secret, inLogs: logs.includes(secret) }).toEqual({ secret, inLogs: false });
    }
    expect(dump).not.toMatch(/tf[posr]_[\w-]{20,}/);
  });
});
