import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createAccount } from '@formline/admin';
import { newPublicId } from '@formline/ids';
import { basicAuthorization, callApi, testInfra, useTestRegions } from '@formline/testing';

const root = path.resolve(__dirname, '../..');

// Personal access tokens over HTTP: the owner creates, lists and revokes them
// with email and password; a token works on both base addresses with exactly
// its scopes; revoked and expired tokens are refused with their own codes.
// And the operators' command makes accounts and tokens that the API accepts.
describe('personal access tokens', () => {
  // Tokens are the global service's: the gateway and it are all there is to it.
  const { db, regions, accounts } = useTestRegions({
    apps: ['gateway', 'global'],
    accounts: { owner: { region: 'us', password: 'owner-password-1' } },
  });
  const { owner } = accounts;
  let formId: string;

  const us = (route: string) => `${regions.baseUrl('us')}${route}`;
  const eu = (route: string) => `${regions.baseUrl('eu')}${route}`;
  const asOwner = () => basicAuthorization(owner.email, owner.password);
  const createToken = (body: unknown) => callApi(us('/tokens'), { method: 'POST', headers: asOwner(), body });

  beforeAll(() => {
    formId = owner.formId;
  });

  it('creates a token shown once; it reads with forms:read on both base addresses', async () => {
    const created = await createToken({ name: 'ci script', scopes: ['forms:read'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'ci script',
      scopes: ['forms:read'],
      created_at: expect.any(String),
      expires_at: null,
      token: expect.stringMatching(/^tfp_[\w-]{43}$/),
    });
    const token = String(created.body.token);
    for (const base of [us, eu]) {
      expect((await callApi(base(`/forms/${formId}`), { token })).status).toBe(200);
    }

    const listed = await callApi(eu('/tokens'), { headers: asOwner() });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toContainEqual({
      id: created.body.id,
      name: 'ci script',
      scopes: ['forms:read'],
      created_at: created.body.created_at,
      expires_at: null,
    });
    expect(listed.text).not.toContain(token);
  });

  it('refuses an operation outside the token scopes with 403 INSUFFICIENT_SCOPE', async () => {
    const created = await createToken({ name: 'responses only', scopes: 'responses:read webhooks:read' });
    expect(created.body.scopes).toEqual(['responses:read', 'webhooks:read']);
    const response = await callApi(us(`/forms/${formId}`), { token: String(created.body.token) });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      description: expect.stringContaining('forms:read'),
    });
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="formline", error="insufficient_scope", error_description="This token lacks the scope forms:read.", scope="forms:read"',
    );
  });

  it('revokes a token: refused at once with TOKEN_REVOKED, gone from the list', async () => {
    const created = await createToken({ name: 'short lived', scopes: ['forms:read'] });
    const token = String(created.body.token);
    const revoked = await callApi(eu(`/tokens/${created.body.id}`), { method: 'DELETE', headers: asOwner() });
    expect(revoked.status).toBe(204);
    for (const base of [us, eu]) {
      const response = await callApi(base(`/forms/${formId}`), { token });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 'TOKEN_REVOKED', description: expect.any(String) });
      expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    }
    const listed = await callApi(us('/tokens'), { headers: asOwner() });
    expect((listed.body.items as { id: string }[]).map((item) => item.id)).not.toContain(created.body.id);
    const again = await callApi(us(`/tokens/${created.body.id}`), { method: 'DELETE', headers: asOwner() });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('TOKEN_NOT_FOUND');
  });

  it('honours an expiry: the token works until then, and is TOKEN_EXPIRED after', async () => {
    const created = await createToken({
      name: 'expiring',
      scopes: ['forms:read'],
      expires_at: new Date(Date.now() + 2000).toISOString(),
    });
    expect(created.status).toBe(201);
    const token = String(created.body.token);
    expect((await callApi(us(`/forms/${formId}`), { token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const response = await callApi(us(`/forms/${formId}`), { token });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('TOKEN_EXPIRED');
  });

  it('refuses an unknown token with INVALID_TOKEN, and no credentials with AUTHENTICATION_FAILED', async () => {
    for (const token of ['tfp_unknown', 'not-even-ours']) {
      const response = await callApi(us(`/forms/${formId}`), { token });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('INVALID_TOKEN');
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="formline", error="invalid_token"/,
      );
    }
    const none = await callApi(us(`/forms/${formId}`));
    expect(none.body.code).toBe('AUTHENTICATION_FAILED');
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="formline"');
  });

  it('manages tokens only with the owner password: a wrong one, or a bearer token, is refused', async () => {
    const wrong = await callApi(us('/tokens'), { headers: basicAuthorization(owner.email, 'nope') });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('AUTHENTICATION_FAILED');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic realm="formline"/);
    const created = await createToken({ name: 'all', scopes: ['forms:read', 'forms:write'] });
    const withToken = await callApi(us('/tokens'), {
      method: 'POST',
      token: String(created.body.token),
      body: { name: 'escalation', scopes: ['forms:write'] },
    });
    expect(withToken.status).toBe(401);
  });

  it('validates the token request', async () => {
    const response = await createToken({ name: '', scopes: ['offline', 'forms:delete'] });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect((response.body.details as { field: string }[]).map((detail) => detail.field)).toEqual(
      expect.arrayContaining(['name', 'scopes[0]', 'scopes[1]']),
    );
    const past = await createToken({
      name: 'past',
      scopes: ['forms:read'],
      expires_at: '2020-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    expect(past.body.details[0].field).toBe('expires_at');
  });

  it("does not let an owner revoke another account's token", async () => {
    const created = await createToken({ name: 'mine', scopes: ['forms:read'] });
    const other = {
      email: `other-${newPublicId(8).toLowerCase()}@example.com`,
      password: 'other-password-1',
    };
    await createAccount(db, { alias: 'other', region: 'eu', ...other });
    const response = await callApi(us(`/tokens/${created.body.id}`), {
      method: 'DELETE',
      headers: basicAuthorization(other.email, other.password),
    });
    expect(response.status).toBe(404);
    expect((await callApi(us(`/forms/${formId}`), { token: String(created.body.token) })).status).toBe(200);
  });

  it('the admin command creates an account in a region and mints a token the API accepts', async () => {
    const env = {
      PATH: process.env.PATH,
      GLOBAL_DATABASE_URL: `${testInfra().databaseHostUrl}/formline_global`,
    };
    const admin = (...args: string[]) =>
      execFileSync(process.execPath, [path.join(root, 'dist/tools/admin/main.js'), ...args], {
        env,
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'pipe'],
      }).trim();
    const email = `admin-${newPublicId(8).toLowerCase()}@example.com`;
    const accountId = admin(
      'create-account',
      '--region',
      'eu',
      '--email',
      email,
      '--alias',
      'ops',
      '--password',
      'admin-password-1',
    );
    expect(accountId).toMatch(/^\w{12}$/);
    const token = admin('mint-token', '--email', email, '--scopes', 'forms:read,workspaces:read');
    expect(token).toMatch(/^tfp_/);
    const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(account.region).toBe('eu');
    expect(account.passwordHash).toMatch(/^scrypt\$/);
    // The token answers on both addresses (the account has no form: 404, not 401).
    for (const base of [us, eu]) {
      expect((await callApi(base('/forms/none'), { token })).body.code).toBe('FORM_NOT_FOUND');
    }
    const listed = await callApi(us('/tokens'), { headers: basicAuthorization(email, 'admin-password-1') });
    expect(listed.body.items[0]).toMatchObject({
      name: 'admin',
      scopes: ['forms:read', 'workspaces:read'],
    });
  });

  it('the admin command refuses bad input and names the problem', () => {
    const result = (() => {
      try {
        execFileSync(
          process.execPath,
          [path.join(root, 'dist/tools/admin/main.js'), 'create-account', '--region', 'mars'],
          {
            env: {
              PATH: process.env.PATH,
              GLOBAL_DATABASE_URL: `${testInfra().databaseHostUrl}/formline_global`,
            },
            encoding: 'utf8',
            stdio: 'pipe',
          },
        );
        return { status: 0, stderr: '' };
      } catch (error) {
        return error as { status: number; stderr: string };
      }
    })();
    expect(result.status).toBe(64);
    expect(result.stderr).toContain('--email is required');
  });
});
