import { callApi, type TestAccount, useTestRegions } from '@formline/testing';

// A workspace shared by email: its member lists it and its forms, reads and
// edits them and reads their responses (in the owning account's region);
// removing forms and responses takes the `owner` role; an account it is not
// shared with, and a member once removed, meet 404 everywhere. Through the
// real gateways, forms and responses services of both regions.
describe('Forms in a shared workspace', () => {
  const { api, baseUrl, accounts } = useTestRegions({
    apps: ['gateway', 'global', 'responses', 'webhooks'],
    // The owner's responses live in the EU; the member and the stranger are US accounts.
    accounts: { owner: 'eu', bee: 'us', cy: 'us' },
  });
  const { owner, bee, cy } = accounts;
  let workspaceId: string;
  let workspaceHref: string;
  let formId: string;
  const responseIds: string[] = [];

  const share = (email: string, role: 'owner' | 'member', region: 'us' | 'eu' = 'eu') =>
    api(
      owner,
      'PATCH',
      `/workspaces/${workspaceId}`,
      [{ op: 'add', path: '/members', value: { email, role } }],
      region,
    );
  const ids = (page: { items: Array<{ id: string }> }) => page.items.map((item) => item.id);
  const listResponses = (account: TestAccount, region: 'us' | 'eu') =>
    api(account, 'GET', `/forms/${formId}/responses`, undefined, region);

  beforeAll(async () => {
    const workspace = await api(owner, 'POST', '/workspaces', { name: 'Team' });
    expect(workspace.status).toBe(201);
    workspaceId = workspace.body.id;
    workspaceHref = workspace.body.self.href;
    const created = await api(owner, 'POST', '/forms', {
      title: 'Team survey',
      fields: [{ ref: 'n', title: 'N', type: 'number' }],
      workspace: { href: workspaceHref },
    });
    expect(created.status).toBe(201);
    formId = created.body.id;
    for (const number of [1, 2, 3]) {
      const submitted = await callApi(`${baseUrl('eu')}/forms/${formId}/submissions`, {
        method: 'POST',
        body: { answers: [{ field: { ref: 'n' }, type: 'number', number }] },
      });
      expect(submitted.status).toBe(201);
      responseIds.push(submitted.body.response_id);
    }
  });

  it('is nothing to the member before it is shared', async () => {
    expect((await api(bee, 'GET', `/forms/${formId}`)).body.code).toBe('FORM_NOT_FOUND');
    expect(ids((await api(bee, 'GET', '/workspaces?page_size=200')).body)).not.toContain(workspaceId);
  });

  describe('shared with role member', () => {
    beforeAll(async () => {
      // By the address's any case: members are compared lower-cased.
      expect((await share(bee.email.toUpperCase(), 'member')).status).toBe(204);
    });

    it('lists the workspace after its own, in GET /workspaces and /accounts/{id}/workspaces', async () => {
      for (const path of [
        '/workspaces?page_size=200',
        `/accounts/${bee.accountId}/workspaces?page_size=200`,
      ]) {
        const listed = await api(bee, 'GET', path);
        expect(listed.status).toBe(200);
        expect(listed.body.items[0]).toMatchObject({ id: bee.workspaceId, default: true });
        expect(listed.body.items.at(-1)).toMatchObject({
          id: workspaceId,
          account_id: owner.accountId,
          shared: true,
          name: 'Team',
        });
        expect(listed.body.total_items).toBe(listed.body.items.length);
      }
      // One page at a time too: its own first, then the shared one.
      const first = await api(bee, 'GET', '/workspaces?page_size=1');
      expect([first.body.total_items, ids(first.body)]).toEqual([2, [bee.workspaceId]]);
      const second = await api(bee, 'GET', '/workspaces?page_size=1&page=2');
      expect(ids(second.body)).toEqual([workspaceId]);
    });

    it("lists the workspace's forms in GET /forms, and by workspace_id", async () => {
      const all = await api(bee, 'GET', '/forms?page_size=200');
      expect(ids(all.body)).toEqual(expect.arrayContaining([formId, bee.formId]));
      const inWorkspace = await api(bee, 'GET', `/forms?workspace_id=${workspaceId}`);
      expect(ids(inWorkspace.body)).toEqual([formId]);
      // Its responses are linked where they live: the owning account's region.
      expect(inWorkspace.body.items[0]._links.responses).toBe(`${baseUrl('eu')}/forms/${formId}/responses`);
    });

    it('reads and changes the form, on either base address', async () => {
      const read = await api(bee, 'GET', `/forms/${formId}`);
      expect(read.status).toBe(200);
      expect(read.body._links.responses).toBe(`${baseUrl('eu')}/forms/${formId}/responses`);
      expect((await api(bee, 'GET', `/forms/${formId}`, undefined, 'eu')).body.title).toBe('Team survey');
      const renamed = await api(bee, 'PATCH', `/forms/${formId}`, [
        { op: 'replace', path: '/title', value: 'Renamed by Bee' },
      ]);
      expect(renamed.status).toBe(204);
      expect((await api(bee, 'GET', `/forms/${formId}`)).body.title).toBe('Renamed by Bee');
      expect((await api(owner, 'GET', `/forms/${formId}`)).body.title).toBe('Renamed by Bee');
      const replaced = await api(bee, 'PUT', `/forms/${formId}`, { ...read.body, title: 'Team survey' });
      expect(replaced.status).toBe(200);
      expect((await api(bee, 'GET', `/forms/${formId}/messages`)).status).toBe(200);
    });

    it('takes a burst of changes to the form at once, each in turn', async () => {
      // More than a service's database connections (10): each change holds
      // one while it decides on the locked row.
      const titles = Array.from({ length: 14 }, (_, n) => `Burst ${n}`);
      const answers = await Promise.all(
        titles.map((value) =>
          api(bee, 'PATCH', `/forms/${formId}`, [{ op: 'replace', path: '/title', value }]),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(titles.map(() => 204));
      // Read where the changes were made: the other region's gateways may
      // serve their cached copy for READ_CACHE_TTL_MS more.
      expect(titles).toContain((await api(bee, 'GET', `/forms/${formId}`)).body.title);
      const restored = await api(bee, 'PATCH', `/forms/${formId}`, [
        { op: 'replace', path: '/title', value: 'Team survey' },
      ]);
      expect(restored.status).toBe(204);
    });

    it("lists the form's responses in the owning account's region, and its insights", async () => {
      const listed = await listResponses(bee, 'eu');
      expect(listed.status).toBe(200);
      expect(listed.body.total_items).toBe(3);
      // The other region holds none of them: empty, as for the owner (region rule 2).
      expect((await listResponses(bee, 'us')).body).toMatchObject({ total_items: 0, items: [] });
      const insights = await api(bee, 'GET', `/insights/${formId}/summary`, undefined, 'eu');
      expect(insights.status).toBe(200);
    });

    it('may not delete the form or its responses, nor move the form: 403 FORBIDDEN', async () => {
      const deleted = await api(bee, 'DELETE', `/forms/${formId}`);
      expect(deleted.status).toBe(403);
      expect(deleted.body).toEqual({ code: 'FORBIDDEN', description: expect.any(String) });
      const responses = await api(
        bee,
        'DELETE',
        `/forms/${formId}/responses?included_response_ids=${responseIds[0]}`,
        undefined,
        'eu',
      );
      expect([responses.status, responses.body.code]).toEqual([403, 'FORBIDDEN']);
      const moved = await api(bee, 'PATCH', `/forms/${formId}`, [
        { op: 'replace', path: '/workspace/href', value: `${baseUrl('us')}/workspaces/${bee.workspaceId}` },
      ]);
      expect([moved.status, moved.body.code]).toEqual([403, 'FORBIDDEN']);
      expect((await api(owner, 'GET', `/forms/${formId}`)).status).toBe(200);
      expect((await listResponses(owner, 'eu')).body.total_items).toBe(3);
    });

    it('loses a form its owner moves out of the workspace, a read it cached included', async () => {
      const leaving = await api(owner, 'POST', '/forms', {
        title: 'Leaving',
        workspace: { href: workspaceHref },
      });
      expect(leaving.status).toBe(201);
      expect((await api(bee, 'GET', `/forms/${leaving.body.id}`)).status).toBe(200);
      // Through the address whose gateway cached the member's read (the other
      // region's may serve it for up to READ_CACHE_TTL_MS: decisions).
      const moved = await api(
        owner,
        'PATCH',
        `/forms/${leaving.body.id}`,
        [
          {
            op: 'replace',
            path: '/workspace/href',
            value: `${baseUrl('eu')}/workspaces/${owner.workspaceId}`,
          },
        ],
        'us',
      );
      expect(moved.status).toBe(204);
      expect((await api(bee, 'GET', `/forms/${leaving.body.id}`)).status).toBe(404);
      expect(ids((await api(bee, 'GET', '/forms?page_size=200')).body)).not.toContain(leaving.body.id);
    });

    it("creates a form in the workspace, which is the owning account's", async () => {
      const created = await api(bee, 'POST', '/forms', {
        title: 'By Bee',
        workspace: { href: workspaceHref },
      });
      expect(created.status).toBe(201);
      expect(created.body._links.responses).toContain(baseUrl('eu'));
      const byOwner = await api(owner, 'GET', `/forms?workspace_id=${workspaceId}`);
      expect(ids(byOwner.body)).toContain(created.body.id);
      expect((await api(bee, 'DELETE', `/forms/${created.body.id}`)).status).toBe(403);
      expect((await api(owner, 'DELETE', `/forms/${created.body.id}`)).status).toBe(204);
    });

    it("leaves the form's webhooks to the owning account", async () => {
      const hook = await api(
        bee,
        'PUT',
        `/forms/${formId}/webhooks/bee`,
        {
          url: 'https://example.com/hook',
          enabled: true,
        },
        'eu',
      );
      expect(hook.body.code).toBe('FORM_NOT_FOUND');
    });

    it('is still nothing to an account it is not shared with: 404 everywhere', async () => {
      const paths: Array<[string, string, unknown?, ('us' | 'eu')?]> = [
        ['GET', `/forms/${formId}`],
        ['GET', `/forms/${formId}`, undefined, 'eu'],
        ['PATCH', `/forms/${formId}`, [{ op: 'replace', path: '/title', value: 'Cy' }]],
        ['PUT', `/forms/${formId}`, { title: 'Cy' }],
        ['DELETE', `/forms/${formId}`],
        ['GET', `/forms/${formId}/messages`],
        ['GET', `/forms/${formId}/responses`, undefined, 'eu'],
        ['DELETE', `/forms/${formId}/responses?included_response_ids=${responseIds[0]}`, undefined, 'eu'],
        ['GET', `/insights/${formId}/summary`, undefined, 'eu'],
        ['GET', `/workspaces/${workspaceId}`],
      ];
      for (const [method, path, body, region] of paths) {
        const answer = await api(cy, method, path, body, region);
        expect([method, path, answer.status]).toEqual([method, path, 404]);
      }
      expect(ids((await api(cy, 'GET', '/forms?page_size=200')).body)).not.toContain(formId);
      expect(ids((await api(cy, 'GET', `/forms?workspace_id=${workspaceId}`)).body)).toEqual([]);
      expect(ids((await api(cy, 'GET', '/workspaces?page_size=200')).body)).not.toContain(workspaceId);
      const created = await api(cy, 'POST', '/forms', { title: 'Cy', workspace: { href: workspaceHref } });
      expect([created.status, created.body.details?.[0]?.code]).toEqual([400, 'INVALID_REFERENCE']);
      expect((await listResponses(owner, 'eu')).body.total_items).toBe(3);
    });
  });

  describe('shared with role owner', () => {
    beforeAll(async () => {
      expect((await share(bee.email, 'owner')).status).toBe(204);
    });

    it('deletes responses and forms, and moves forms only within the owning account', async () => {
      const deleted = await api(
        bee,
        'DELETE',
        `/forms/${formId}/responses?included_response_ids=${responseIds[0]}`,
        undefined,
        'eu',
      );
      expect(deleted.status).toBe(200);
      expect((await listResponses(owner, 'eu')).body.total_items).toBe(2);
      // Into its own workspace it would change hands (and its responses' region): refused.
      const moved = await api(bee, 'PATCH', `/forms/${formId}`, [
        { op: 'replace', path: '/workspace/href', value: `${baseUrl('us')}/workspaces/${bee.workspaceId}` },
      ]);
      expect([moved.status, moved.body.details?.[0]?.code]).toEqual([400, 'INVALID_REFERENCE']);
      const extra = await api(bee, 'POST', '/forms', {
        title: 'Short-lived',
        workspace: { href: workspaceHref },
      });
      expect((await api(bee, 'DELETE', `/forms/${extra.body.id}`)).status).toBe(204);
      expect((await api(owner, 'GET', `/forms/${extra.body.id}`)).status).toBe(404);
    });
  });

  describe('after the member is removed', () => {
    beforeAll(async () => {
      // A read the member's gateway cached (us) must not outlive the removal made there.
      expect((await api(bee, 'GET', `/forms/${formId}`)).status).toBe(200);
      const removed = await api(
        owner,
        'PATCH',
        `/workspaces/${workspaceId}`,
        [{ op: 'remove', path: '/members', value: { email: bee.email } }],
        'us',
      );
      expect(removed.status).toBe(204);
    });

    it('answers 404 to the former member again', async () => {
      expect((await api(bee, 'GET', `/forms/${formId}`)).status).toBe(404);
      expect((await api(bee, 'GET', `/forms/${formId}/messages`)).status).toBe(404);
      expect((await listResponses(bee, 'eu')).status).toBe(404);
      expect(
        (await api(bee, 'PATCH', `/forms/${formId}`, [{ op: 'replace', path: '/title', value: 'x' }])).status,
      ).toBe(404);
      expect((await api(bee, 'DELETE', `/forms/${formId}`)).status).toBe(404);
      expect(ids((await api(bee, 'GET', '/forms?page_size=200')).body)).not.toContain(formId);
      expect(ids((await api(bee, 'GET', '/workspaces?page_size=200')).body)).not.toContain(workspaceId);
      expect((await api(owner, 'GET', `/forms/${formId}`)).status).toBe(200);
    });
  });

  it('takes parallel patches adding the same members, in either order, each member once', async () => {
    const made = await api(owner, 'POST', '/workspaces', { name: 'Busy' });
    expect(made.status).toBe(201);
    const add = (emails: string[]) =>
      api(
        owner,
        'PATCH',
        `/workspaces/${made.body.id}`,
        emails.map((email) => ({ op: 'add', path: '/members', value: { email } })),
      );
    const pair = ['p1@example.com', 'p2@example.com'];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => add(n % 2 === 0 ? pair : [...pair].reverse())),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 204));
    const read = await api(owner, 'GET', `/workspaces/${made.body.id}`);
    const emails = (read.body.members as Array<{ email: string }>).map((member) => member.email);
    expect(emails.filter((email) => pair.includes(email)).sort()).toEqual(pair);
  });
});
