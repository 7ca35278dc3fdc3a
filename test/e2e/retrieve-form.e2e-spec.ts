import path from 'node:path';
import { mintPersonalAccessToken } from '@formline/admin';
import { hashAccessToken } from '@formline/tokens';
import { callApi, createTestAccount, testInfra, useTestRegions } from '@formline/testing';
import { seedDemo, type DemoAccount } from '../../tools/seed/demo-seed';

// The first vertical slice: GET /forms/{form_id} through each region's gateway,
// the global service over NATS, and PostgreSQL, with both regions running.
describe('GET /forms/{form_id} on both base addresses', () => {
  // The global service answers GET /forms on both addresses: no other app is needed.
  const { db, regions, accounts } = useTestRegions({
    apps: ['gateway', 'global'],
    accounts: { usAccount: 'us', euAccount: 'eu' },
  });
  const { usAccount, euAccount } = accounts;
  let demo: DemoAccount[];

  beforeAll(async () => {
    demo = await seedDemo(db, path.join(testInfra().dataDir, 'demo-tokens.json'));
  });

  it('serves the seeded demo form of each region with its token', async () => {
    for (const account of demo) {
      const response = await callApi(`${regions.baseUrl('us')}/forms/${account.formId}`, {
        token: account.token,
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: account.formId,
        title: expect.stringContaining('demo') as unknown,
      });
    }
  });

  it('answers byte-identical forms on both base addresses (region rule 1)', async () => {
    for (const account of [usAccount, euAccount]) {
      const fromUs = await callApi(`${regions.baseUrl('us')}/forms/${account.formId}`, {
        token: account.token,
      });
      const fromEu = await callApi(`${regions.baseUrl('eu')}/forms/${account.formId}`, {
        token: account.token,
      });
      expect(fromUs.status).toBe(200);
      expect(fromEu.status).toBe(200);
      expect(fromEu.text).toBe(fromUs.text);
    }
  });

  it("links responses to the base address of the account's region", async () => {
    const us = await callApi(`${regions.baseUrl('eu')}/forms/${usAccount.formId}`, {
      token: usAccount.token,
    });
    const eu = await callApi(`${regions.baseUrl('us')}/forms/${euAccount.formId}`, {
      token: euAccount.token,
    });
    expect(us.body._links.responses).toBe(`${regions.baseUrl('us')}/forms/${usAccount.formId}/responses`);
    expect(eu.body._links.responses).toBe(`${regions.baseUrl('eu')}/forms/${euAccount.formId}/responses`);
  });

  it('accepts the bearer scheme in any case', async () => {
    const url = `${regions.baseUrl('us')}/forms/${usAccount.formId}`;
    for (const scheme of ['bearer', 'Bearer', 'BEARER']) {
      const response = await callApi(url, { headers: { authorization: `${scheme} ${usAccount.token}` } });
      expect(response.status).toBe(200);
    }
  });

  it.each([
    ['no Authorization header', {}, 'AUTHENTICATION_FAILED'],
    ['an unknown token', { authorization: 'bearer tfp_not-a-real-token' }, 'INVALID_TOKEN'],
    ['another scheme', { authorization: `Basic dXNlcjpwYXNz` }, 'AUTHENTICATION_FAILED'],
    ['an empty bearer', { authorization: 'bearer ' }, 'AUTHENTICATION_FAILED'],
  ])('refuses %s with 401 and the error body', async (_, headers: Record<string, string>, code: string) => {
    const response = await callApi(`${regions.baseUrl('us')}/forms/${usAccount.formId}`, { headers });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      code,
      description: expect.any(String) as unknown,
    });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('refuses revoked and expired tokens', async () => {
    const revoked = await createTestAccount(db, 'us');
    await db.personalAccessToken.update({
      where: { tokenHash: hashAccessToken(revoked.token) },
      data: { revokedAt: new Date() },
    });
    const expired = await createTestAccount(db, 'us');
    await db.personalAccessToken.update({
      where: { tokenHash: hashAccessToken(expired.token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    for (const [account, code] of [
      [revoked, 'TOKEN_REVOKED'],
      [expired, 'TOKEN_EXPIRED'],
    ] as const) {
      const response = await callApi(`${regions.baseUrl('us')}/forms/${account.formId}`, {
        token: account.token,
      });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe(code);
    }
  });

  it('refuses a token without the forms:read scope with 403', async () => {
    const token = await mintPersonalAccessToken(db, {
      accountId: usAccount.accountId,
      name: 'no forms',
      scopes: ['responses:read'],
    });
    const response = await callApi(`${regions.baseUrl('us')}/forms/${usAccount.formId}`, { token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      description: expect.stringContaining('forms:read'),
    });
  });

  it('answers 404 with the error body for an unknown form', async () => {
    const response = await callApi(`${regions.baseUrl('us')}/forms/doesNotExist`, { token: usAccount.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'FORM_NOT_FOUND', description: expect.any(String) as unknown });
  });

  it("answers 404 for another account's form, as if it did not exist", async () => {
    const response = await callApi(`${regions.baseUrl('us')}/forms/${euAccount.formId}`, {
      token: usAccount.token,
    });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('FORM_NOT_FOUND');
  });

  it('answers 404 with the error body for an unknown route', async () => {
    const response = await callApi(`${regions.baseUrl('us')}/no/such/route`, { token: usAccount.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'NOT_FOUND', description: expect.any(String) as unknown });
  });
});
