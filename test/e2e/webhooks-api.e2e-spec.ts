import { mintPersonalAccessToken } from '@formline/admin';
import { callApi, createTestAccount, type TestAccount, useTestRegions } from '@formline/testing';

// Typeform's Webhooks API through both regions' gateways and webhooks services.
describe('webhooks API', () => {
  const { db, regions, webhooksDb, accounts } = useTestRegions({
    apps: ['gateway', 'global', 'webhooks'],
    accounts: { alice: 'us', bob: 'eu', carol: 'us' },
    // A small cap, so that a test can reach it.
    extraEnv: { WEBHOOKS_PER_FORM: '6' },
  });
  const { alice, bob, carol } = accounts;

  const hook = (account: TestAccount, tag: string, method = 'GET', body?: unknown, region = account.region) =>
    callApi(`${regions.baseUrl(region)}/forms/${account.formId}/webhooks/${tag}`, {
      token: account.token,
      method,
      body,
    });

  it('creates with PUT, returns every field, and stores the secret encrypted', async () => {
    const created = await hook(alice, 'main', 'PUT', {
      url: 'https://example.com/hook',
      enabled: true,
      secret: 's3cret',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      form_id: alice.formId,
      tag: 'main',
      url: 'https://example.com/hook',
      enabled: true,
      verify_ssl: true,
      secret: 's3cret',
      event_types: { form_response: true, form_response_partial: false },
      disabled_reason: null,
      // Whole seconds, as Typeform's webhooks show them.
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    const row = await webhooksDb.us.webhook.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.secretSealed).not.toContain('s3cret');
    expect((await hook(alice, 'main')).body).toEqual(created.body);
    // Typeform answers 200 to a create, by PUT or by POST.
    const byPost = await hook(alice, 'made-by-post', 'POST', { url: 'https://example.com/post' });
    expect(byPost.status).toBe(200);
    expect(byPost.body).toMatchObject({ tag: 'made-by-post', url: 'https://example.com/post' });
  });

  it('toggles with only `enabled`, keeping the url; a new url changes it', async () => {
    await hook(alice, 'toggle', 'PUT', { url: 'https://example.com/a', enabled: true });
    const off = await hook(alice, 'toggle', 'PUT', { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ url: 'https://example.com/a', enabled: false });
    const moved = await hook(alice, 'toggle', 'PUT', { url: 'https://example.com/b' });
    expect(moved.body).toMatchObject({ url: 'https://example.com/b', enabled: false });
    const byPost = await hook(alice, 'toggle', 'POST', { enabled: true, verify_ssl: false });
    expect(byPost.status).toBe(200);
    expect(byPost.body).toMatchObject({ url: 'https://example.com/b', enabled: true, verify_ssl: false });
  });

  it('needs a url to create, and refuses unknown fields', async () => {
    const noUrl = await hook(alice, 'nourl', 'PUT', { enabled: true });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.details[0]).toMatchObject({ field: 'url', in: 'body' });
    expect((await hook(alice, 'extra', 'PUT', { url: 'https://example.com', colour: 'red' })).status).toBe(
      400,
    );
    expect((await hook(alice, 'nourl')).status).toBe(404);
    const badTag = await hook(alice, 'no%20spaces', 'PUT', { url: 'https://example.com' });
    expect(badTag.status).toBe(400);
    expect(badTag.body.details[0]).toMatchObject({ field: 'tag', in: 'path' });
  });

  it.each([
    'ftp://example.com/hook',
    'not a url',
    'http://10.1.2.3/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]:8080/hook',
    'http://localhost:8080/hook',
    'http://127.0.0.2/hook',
    'http://[::ffff:10.0.0.1]/hook',
  ])('refuses the url %s', async (url) => {
    const refused = await hook(alice, 'private', 'PUT', { url, enabled: true });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect((await hook(alice, 'private')).status).toBe(404);
  });

  it('accepts an allow-listed internal address (127.0.0.1 in tests)', async () => {
    expect((await hook(alice, 'local', 'PUT', { url: 'http://127.0.0.1:9/hook' })).status).toBe(200);
  });

  it('lists and deletes', async () => {
    await hook(alice, 'gone', 'PUT', { url: 'https://example.com/gone' });
    const list = await callApi(`${regions.baseUrl('us')}/forms/${alice.formId}/webhooks`, {
      token: alice.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.items.map((item: { tag: string }) => item.tag)).toContain('gone');
    expect((await hook(alice, 'gone', 'DELETE')).status).toBe(204);
    expect((await hook(alice, 'gone')).status).toBe(404);
    expect((await hook(alice, 'gone', 'DELETE')).status).toBe(404);
  });

  it("refuses on the other region's address, naming the right one, and creates nothing", async () => {
    const wrong = await hook(bob, 'eu-hook', 'PUT', { url: 'https://example.com/eu' }, 'us');
    expect(wrong.status).toBe(421);
    expect(wrong.body.code).toBe('WRONG_REGION');
    expect(wrong.body.description).toContain(regions.baseUrl('eu'));
    expect((await hook(bob, 'eu-hook', 'GET', undefined, 'us')).status).toBe(421);
    expect(await webhooksDb.us.webhook.count({ where: { formId: bob.formId } })).toBe(0);
    expect((await hook(bob, 'eu-hook')).status).toBe(404);
    expect((await hook(bob, 'eu-hook', 'PUT', { url: 'https://example.com/eu' })).status).toBe(200);
    expect(await webhooksDb.eu.webhook.count({ where: { formId: bob.formId } })).toBe(1);
  });

  it('needs webhooks:read to read and webhooks:write to change', async () => {
    const readOnly = await mintPersonalAccessToken(db, {
      accountId: alice.accountId,
      name: 'read-only',
      scopes: ['webhooks:read'],
    });
    const url = `${regions.baseUrl('us')}/forms/${alice.formId}/webhooks/main`;
    expect((await callApi(url, { token: readOnly })).status).toBe(200);
    const write = await callApi(url, { token: readOnly, method: 'PUT', body: { enabled: false } });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('INSUFFICIENT_SCOPE');
    expect((await callApi(url, { token: readOnly, method: 'DELETE' })).status).toBe(403);
    expect((await callApi(url)).status).toBe(401);
  });

  it("hides another account's form", async () => {
    const other = await callApi(`${regions.baseUrl('us')}/forms/${alice.formId}/webhooks/x`, {
      token: (await createTestAccount(db, 'us')).token,
      method: 'PUT',
      body: { url: 'https://example.com' },
    });
    expect(other.status).toBe(404);
  });

  // The parallel tests below send allow-listed addresses: a name's lookup
  // (example.com) may wait out the resolver here, one lookup on each of
  // libuv's four threads at a time.
  it('holds at most WEBHOOKS_PER_FORM webhooks a form: one more is 409 until one is deleted', async () => {
    const create = (tag: string) => hook(carol, tag, 'PUT', { url: 'http://127.0.0.1:9/x' });
    for (const tag of ['a', 'b', 'c', 'd', 'e']) expect((await create(tag)).status).toBe(200);
    // One slot left and four creations at once: exactly one takes it.
    const raced = await Promise.all(['f', 'g', 'h', 'i'].map(create));
    expect(raced.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    expect(raced.find((answer) => answer.status === 409)!.body).toMatchObject({
      code: 'CONFLICT',
      details: [{ code: 'TOO_MANY_WEBHOOKS', description: 'at most 6 webhooks a form' }],
    });
    expect(await webhooksDb.us.webhook.count({ where: { formId: carol.formId } })).toBe(6);
    // Changing one the form holds is no creation.
    expect((await hook(carol, 'a', 'PUT', { enabled: true })).status).toBe(200);
    expect((await hook(carol, 'b', 'DELETE')).status).toBe(204);
    expect((await create('j')).status).toBe(200);
  });

  it('answers parallel creations of one tag as one webhook, the last one written winning, none a 500', async () => {
    // Three tags, eight creations each at once: enough for creations to meet.
    for (const tag of ['race-1', 'race-2', 'race-3']) {
      const urls = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `http://127.0.0.1:9/${tag}-${n}`);
      const answers = await Promise.all(urls.map((url) => hook(alice, tag, 'PUT', { url })));
      expect(answers.map((answer) => answer.status)).toEqual(urls.map(() => 200));
      const rows = await webhooksDb.us.webhook.findMany({ where: { formId: alice.formId, tag } });
      expect(rows).toHaveLength(1);
      expect(new Set(answers.map((answer) => answer.body.id))).toEqual(new Set([rows[0].id]));
      expect(urls).toContain(rows[0].url);
      expect((await hook(alice, tag, 'DELETE')).status).toBe(204);
    }
  });

  it('lands parallel changes of different event types, each merged into the subscription as it is', async () => {
    for (const round of [1, 2, 3, 4]) {
      const tag = `types-${round}`;
      await hook(alice, tag, 'PUT', { url: 'http://127.0.0.1:9/types' });
      const answers = await Promise.all([
        hook(alice, tag, 'PUT', { event_types: { form_response_partial: true } }),
        hook(alice, tag, 'PUT', { event_types: { form_response: false } }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect((await hook(alice, tag)).body.event_types).toEqual({
        form_response: false,
        form_response_partial: true,
      });
      expect((await hook(alice, tag, 'DELETE')).status).toBe(204);
    }
  });
});
