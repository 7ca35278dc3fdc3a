import {
  basicAuthorization,
  callApi,
  openAuthorizePage,
  postForm,
  submitConsent,
  useTestRegions,
} from '@formline/testing';

const redirectUri = 'http://127.0.0.1:9/callback';
// Short, so that a test can outwait it; each test refreshes well within it.
const refreshIdleSeconds = 3;

// What an account owner controls of the applications it let in: the list of
// grants, and revoking one (its tokens stop at once). Refresh tokens expire
// after a time of disuse, and a refresh that asks for too much does not use
// the refresh token up.
describe('OAuth grants of an account', () => {
  const { regions, accounts } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global'],
    extraEnv: { OAUTH_REFRESH_TOKEN_IDLE_TTL_SECONDS: String(refreshIdleSeconds) },
    accounts: {
      developer: { region: 'us', password: 'developer-pass-1' },
      person: { region: 'us', password: 'person-pass-2' },
      other: { region: 'us', password: 'other-pass-3' },
    },
  });
  const { developer, person, other } = accounts;
  let formId: string;
  let client: { client_id: string; client_secret: string };

  const us = (route: string) => `${regions.baseUrl('us')}${route}`;
  const owner = (who: { email: string; password: string }) => basicAuthorization(who.email, who.password);

  async function grantTokens(scope = 'forms:read accounts:read offline') {
    const url = new URL(us('/oauth/authorize'));
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope,
      state: 's',
    }))
      url.searchParams.set(name, value);
    const page = await openAuthorizePage(url.toString());
    const answer = await submitConsent(page, { ...person, decision: 'allow' });
    const code = answer.location?.searchParams.get('code');
    if (!code) throw new Error(`no code in ${answer.location?.toString()}`);
    const tokens = await postForm(us('/oauth/token'), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      ...client,
    });
    expect(tokens.status).toBe(200);
    return tokens.body as { access_token: string; refresh_token: string };
  }

  const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
    postForm(us('/oauth/token'), {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      ...client,
      ...extra,
    });
  const readForm = (token: string) => callApi(us(`/forms/${formId}`), { token });
  const grants = (who = person) => callApi(us('/oauth/grants'), { headers: owner(who) });

  beforeAll(async () => {
    formId = person.formId;
    const created = await callApi(us('/oauth/applications'), {
      method: 'POST',
      headers: owner(developer),
      body: { name: 'Survey Sync', redirect_uris: [redirectUri] },
    });
    client = { client_id: created.body.client_id, client_secret: created.body.client_secret };
  });

  it('lists the applications the account granted access to, and revoking one ends its tokens at once', async () => {
    const first = await grantTokens();
    const second = await grantTokens('forms:read');
    const listed = await grants();
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      {
        id: expect.any(String),
        client_id: client.client_id,
        application_name: 'Survey Sync',
        scopes: ['forms:read'],
        created_at: expect.any(String),
      },
      expect.objectContaining({
        client_id: client.client_id,
        scopes: ['forms:read', 'accounts:read', 'offline'],
      }),
    ]);
    expect(listed.text).not.toContain(first.access_token);
    // Only the owner sees them: another account lists none, and cannot revoke them.
    expect((await grants(other)).body.items).toEqual([]);
    const grantId = listed.body.items[1].id as string;
    expect(
      (await callApi(us(`/oauth/grants/${grantId}`), { method: 'DELETE', headers: owner(other) })).status,
    ).toBe(404);

    expect((await readForm(first.access_token)).status).toBe(200);
    const revoked = await callApi(us(`/oauth/grants/${grantId}`), {
      method: 'DELETE',
      headers: owner(person),
    });
    expect(revoked.status).toBe(204);
    const refused = await readForm(first.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('TOKEN_REVOKED');
    expect((await refresh(first.refresh_token)).body.error).toBe('invalid_grant');
    // The other grant goes on; the revoked one is gone from the list, and cannot be revoked twice.
    expect((await readForm(second.access_token)).status).toBe(200);
    expect((await grants()).body.items.map((grant: { id: string }) => grant.id)).not.toContain(grantId);
    const again = await callApi(us(`/oauth/grants/${grantId}`), { method: 'DELETE', headers: owner(person) });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
  });

  it('does not use up a refresh token on a refresh that asks for a scope never granted', async () => {
    const tokens = await grantTokens('forms:read offline');
    const greedy = await refresh(tokens.refresh_token, { scope: 'forms:read forms:write' });
    expect(greedy.status).toBe(400);
    expect(greedy.body.error).toBe('invalid_scope');
    const corrected = await refresh(tokens.refresh_token, { scope: 'forms:read' });
    expect(corrected.status).toBe(200);
    expect((await readForm(corrected.body.access_token)).status).toBe(200);
  });

  it('refuses a refresh token unused for longer than the configured time, and renews it with each use', async () => {
    // Waits are counted from when each token was known to exist, so a slow
    // grant on a busy machine shortens them rather than failing the test.
    const window = refreshIdleSeconds * 1000;
    const sleepUntil = (at: number) =>
      new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
    const idle = await grantTokens('forms:read offline');
    const tokens = await grantTokens('forms:read offline');
    const granted = Date.now();
    await sleepUntil(granted + window / 2);
    // Used in time: a new refresh token, whose clock starts now.
    const renewing = Date.now();
    const renewed = await refresh(tokens.refresh_token);
    expect(renewed.status).toBe(200);
    // Past the first token's window, within the renewed one's.
    await sleepUntil(renewing + window * 0.6);
    expect(Date.now() - granted).toBeGreaterThan(window);
    expect((await refresh(renewed.body.refresh_token)).status).toBe(200);
    // Granted before the first one and never used: past its window.
    const expired = await refresh(idle.refresh_token);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/expired/),
    });
  });

  // The tokens are the person's, the application the developer's: the
  // gateway must forget the person's token checks when the developer deletes
  // it, not wait for its cache to lapse.
  it("ends its users' tokens at once when the developer deletes the application", async () => {
    const created = await callApi(us('/oauth/applications'), {
      method: 'POST',
      headers: owner(developer),
      body: { name: 'Short-lived', redirect_uris: [redirectUri] },
    });
    client = { client_id: created.body.client_id, client_secret: created.body.client_secret };
    const tokens = await grantTokens('forms:read');
    expect((await readForm(tokens.access_token)).status).toBe(200);
    const deleted = await callApi(us(`/oauth/applications/${client.client_id}`), {
      method: 'DELETE',
      headers: owner(developer),
    });
    expect(deleted.status).toBe(204);
    expect((await readForm(tokens.access_token)).status).toBe(401);
  });
});
