import { basicAuthorization, callApi, createTestForm, useTestRegions } from '@formline/testing';
import type { Region } from '@formline/contracts';

// The gateway caches token checks, form reads and submission snapshots. A
// change made through one region is seen by that region's next request (the
// global service announces it on the region's NATS); the other region hears no
// announcement and sees it once its entry's lifetime, READ_CACHE_TTL_MS, ends.
// Every check below first reads through both gateways, so both hold the old answer.
const ttlMs = 3000;
// Time the other region may take beyond its cache's lifetime: a request's own
// round trip on a busy test machine.
const slackMs = 2000;

describe('gateway read cache', () => {
  // Submission snapshots are read through the responses service; webhooks play no part.
  const { db, regions, accounts } = useTestRegions({
    apps: ['gateway', 'global', 'responses'],
    extraEnv: { READ_CACHE_TTL_MS: String(ttlMs) },
    accounts: { owner: { region: 'us', password: 'owner-password-1' } },
  });
  const { owner } = accounts;

  const url = (region: Region, route: string) => `${regions.baseUrl(region)}${route}`;
  const newToken = async () => {
    const created = await callApi(url('us', '/tokens'), {
      method: 'POST',
      headers: basicAuthorization(owner.email, owner.password),
      body: { name: 'cached', scopes: ['forms:read', 'forms:write', 'responses:write'] },
    });
    expect(created.status).toBe(201);
    return { id: String(created.body.id), token: String(created.body.token) };
  };
  const newForm = (title: string) =>
    createTestForm(db, {
      accountId: owner.accountId,
      workspaceId: owner.workspaceId,
      title,
      definition: { fields: [{ ref: 'q', title: 'Q', type: 'yes_no' }] },
    });
  // Until `done` holds for the other region's answer; how long that took after `since`.
  const seenWithin = async (read: () => Promise<boolean>, since: number) => {
    const deadline = since + ttlMs + slackMs;
    while (!(await read())) {
      if (Date.now() > deadline) return Number.POSITIVE_INFINITY;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Date.now() - since;
  };

  it('refuses a revoked token on the next request in its region, and in the other within the bound', async () => {
    const formId = await newForm('Cached token');
    const { id, token } = await newToken();
    for (const region of ['us', 'eu'] as const) {
      expect((await callApi(url(region, `/forms/${formId}`), { token })).status).toBe(200);
    }
    const revoked = await callApi(url('us', `/tokens/${id}`), {
      method: 'DELETE',
      headers: basicAuthorization(owner.email, owner.password),
    });
    expect(revoked.status).toBe(204);
    const revokedAt = Date.now();
    const next = await callApi(url('us', `/forms/${formId}`), { token });
    expect([next.status, next.body.code]).toEqual([401, 'TOKEN_REVOKED']);
    const inEu = await seenWithin(
      async () => (await callApi(url('eu', `/forms/${formId}`), { token })).status === 401,
      revokedAt,
    );
    expect(inEu).toBeLessThanOrEqual(ttlMs + slackMs);
  });

  it('serves a changed form as changed on the next request in its region, and in the other within the bound', async () => {
    const formId = await newForm('Before');
    const { token } = await newToken();
    for (const region of ['us', 'eu'] as const) {
      expect((await callApi(url(region, `/forms/${formId}`), { token })).body.title).toBe('Before');
    }
    const patched = await callApi(url('us', `/forms/${formId}`), {
      token,
      method: 'PATCH',
      body: [{ op: 'replace', path: '/title', value: 'After' }],
    });
    expect(patched.status).toBe(204);
    const changedAt = Date.now();
    const next = await callApi(url('us', `/forms/${formId}`), { token });
    expect([next.body.title, next.headers.get('etag')]).toEqual(['After', patched.headers.get('etag')]);
    const inEu = await seenWithin(
      async () => (await callApi(url('eu', `/forms/${formId}`), { token })).body.title === 'After',
      changedAt,
    );
    expect(inEu).toBeLessThanOrEqual(ttlMs + slackMs);
  });

  it('serves a deleted form as gone, to reads and submissions, on the next request in its region, and in the other within the bound', async () => {
    const formId = await newForm('Doomed');
    const { token } = await newToken();
    // Not following the other region's 307: its own answer is what is checked.
    const submit = async (region: Region) => {
      const response = await fetch(url(region, `/forms/${formId}/submissions`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: [{ field: { ref: 'q' }, type: 'boolean', boolean: true }] }),
        redirect: 'manual',
      });
      await response.arrayBuffer();
      return response;
    };
    expect((await submit('us')).status).toBe(201);
    for (const region of ['us', 'eu'] as const) {
      expect((await callApi(url(region, `/forms/${formId}`), { token })).status).toBe(200);
    }
    expect((await submit('eu')).status).toBe(307); // its snapshot now cached in eu too
    const deleted = await callApi(url('us', `/forms/${formId}`), { token, method: 'DELETE' });
    expect(deleted.status).toBe(204);
    const deletedAt = Date.now();
    expect((await callApi(url('us', `/forms/${formId}`), { token })).status).toBe(404);
    expect((await submit('us')).status).toBe(404);
    const inEu = await seenWithin(
      async () =>
        (await callApi(url('eu', `/forms/${formId}`), { token })).status === 404 &&
        (await submit('eu')).status === 404,
      deletedAt,
    );
    expect(inEu).toBeLessThanOrEqual(ttlMs + slackMs);
  });
});
