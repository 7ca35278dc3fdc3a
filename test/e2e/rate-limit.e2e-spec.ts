import { createAccount, mintPersonalAccessToken } from '@formline/admin';
import { newPublicId } from '@formline/ids';
import { basicAuthorization, callApi, useTestRegions } from '@formline/testing';

// Per-token rate limits and failed sign-ins through the gateway: over the
// budget, 429 RATE_LIMITED with Retry-After. How the budgets are counted in
// Redis (shared by replicas, exact under bursts, over after the window) is
// the rate limiter's integration spec's (libs/http-edge/src/rate-limit).
describe('rate limits', () => {
  const { db, accounts, baseUrl } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global'],
    extraEnv: {
      RATE_LIMIT_REQUESTS: '3',
      RATE_LIMIT_WINDOW_MS: '60000',
      LOGIN_RATE_LIMIT_ATTEMPTS: '2',
      LOGIN_RATE_LIMIT_WINDOW_MS: '60000',
    },
    accounts: { owner: 'us' },
  });

  const readForm = (token = accounts.owner.token) =>
    callApi(`${baseUrl('us')}/forms/${accounts.owner.formId}`, { token });

  it('answers 429 with Retry-After past the budget of a token; another token has its own', async () => {
    for (let n = 0; n < 3; n++) expect((await readForm()).status).toBe(200);
    const limited = await readForm();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'RATE_LIMITED', description: expect.any(String) });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const other = await mintPersonalAccessToken(db, { accountId: accounts.owner.accountId, name: 'other' });
    expect((await readForm(other)).status).toBe(200);
  });

  it('refuses sign-ins for an email after too many failures, even with the right password', async () => {
    const owner = { email: `rl-${newPublicId(8).toLowerCase()}@example.com`, password: 'right-password-1' };
    await createAccount(db, { alias: 'rl', region: 'us', ...owner });
    const list = (password: string) =>
      callApi(`${baseUrl('us')}/tokens`, { headers: basicAuthorization(owner.email, password) });
    expect((await list(owner.password)).status).toBe(200); // successes are not counted
    expect((await list('wrong-1')).status).toBe(401);
    expect((await list('wrong-2')).status).toBe(401);
    const refused = await list(owner.password);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
