import { mintPersonalAccessToken } from '@formline/admin';
import { typeformFormWithEveryField } from '@formline/form-fixtures';
import {
  callApi,
  createTestAccount,
  type ApiResponse,
  type TestAccount,
  uploadTestImage,
  useTestRegions,
} from '@formline/testing';

// The Create API for forms, workspaces and the account, through the real
// gateway and global service of both regions.
describe('Forms Create API', () => {
  const { db, regions, accounts } = useTestRegions({
    apps: ['gateway', 'global', 'media'],
    accounts: { alice: 'us', bob: 'eu' },
  });

  const api = (
    account: TestAccount,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
    region: 'us' | 'eu' = 'us',
  ): Promise<ApiResponse> =>
    callApi(`${regions.baseUrl(region)}${path}`, { token: account.token, method, body, headers });

  const createForm = async (account: TestAccount, body: Record<string, unknown>) => {
    const response = await api(account, 'POST', '/forms', body);
    expect(response.status).toBe(201);
    return response;
  };

  describe('forms', () => {
    it('creates a minimal form with every default, readable back the same', async () => {
      const created = await createForm(alice, { title: 'Minimal' });
      expect(created.headers.get('etag')).toBe('"1"');
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
        title: 'Minimal',
        language: 'en',
        fields: [],
        hidden: [],
        variables: { score: 0, price: 0 },
        welcome_screens: [],
        thankyou_screens: [expect.objectContaining({ ref: 'default_tys' })],
        logic: [],
        workspace: { href: `${regions.baseUrl('us')}/workspaces/${alice.accountId}-default` },
        _links: {
          display: `${regions.baseUrl('us')}/to/${created.body.id}`,
          responses: `${regions.baseUrl('us')}/forms/${created.body.id}/responses`,
        },
        settings: {
          is_public: true,
          autosave_progress: true,
          progress_bar: 'proportion',
          show_progress_bar: true,
          show_service_branding: true,
          show_time_to_complete: true,
          show_question_number: true,
          show_key_hint_on_choices: true,
          meta: { allow_indexing: true },
        },
      });
      const read = await api(alice, 'GET', `/forms/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.text).toBe(created.text);
    });

    it('reads byte-identical through both base addresses, with responses linked to the region', async () => {
      const form = await createForm(bob, { title: 'EU form', fields: [{ title: 'Q', type: 'yes_no' }] });
      const fromUs = await api(bob, 'GET', `/forms/${form.body.id}`, undefined, undefined, 'us');
      const fromEu = await api(bob, 'GET', `/forms/${form.body.id}`, undefined, undefined, 'eu');
      expect(fromEu.text).toBe(fromUs.text);
      expect(fromUs.body._links.responses).toBe(`${regions.baseUrl('eu')}/forms/${form.body.id}/responses`);
    });

    it('refuses an invalid definition with 400 and details naming each path', async () => {
      const response = await api(alice, 'POST', '/forms', {
        title: 'Bad',
        colour: 'red',
        fields: [{ ref: 'a', title: 'A', type: 'short_text' }],
        settings: { milestones: [{ field_ref: 'a' }, { field_ref: 'a' }] },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(response.body.details).toEqual(
        expect.arrayContaining([
          { code: 'UNKNOWN_PROPERTY', description: expect.any(String), field: 'colour', in: 'body' },
          { code: 'TOO_BIG', description: expect.any(String), field: 'settings.milestones', in: 'body' },
        ]),
      );
    });

    it.each([
      ['a body that is not JSON', '{"title": '],
      ['a body that is not an object', '[1, 2]'],
    ])('refuses %s with 400, not 500', async (_, raw) => {
      const response = await callApi(`${regions.baseUrl('us')}/forms`, {
        token: alice.token,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        rawBody: raw,
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
    });

    it('refuses a body over the size limit with 413', async () => {
      const response = await api(alice, 'POST', '/forms', { title: 'x'.repeat(2 * 1024 * 1024) });
      expect(response.status).toBe(413);
      expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('replaces a form with PUT, keeping the ids of fields it still has', async () => {
      const created = await createForm(alice, {
        title: 'v1',
        fields: [
          { ref: 'name', title: 'Name?', type: 'short_text' },
          { ref: 'age', title: 'Age?', type: 'number' },
        ],
      });
      const [name] = created.body.fields;
      const replaced = await api(alice, 'PUT', `/forms/${created.body.id}`, {
        title: 'v2',
        fields: [
          { ref: 'email', title: 'Email?', type: 'email' },
          { ref: 'name', title: 'Full name?', type: 'short_text' },
        ],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.headers.get('etag')).toBe('"2"');
      expect(replaced.body.title).toBe('v2');
      expect(replaced.body.fields.map((f: { ref: string }) => f.ref)).toEqual(['email', 'name']);
      expect(replaced.body.fields[1].id).toBe(name.id);
      expect(replaced.body.created_at).toBe(created.body.created_at);
    });

    it('accepts a form read back as it is (GET, then PUT the body)', async () => {
      const created = await createForm(alice, {
        title: 'Round trip',
        fields: [{ title: 'Q', type: 'rating' }],
      });
      const replaced = await api(alice, 'PUT', `/forms/${created.body.id}`, created.body);
      expect(replaced.status).toBe(200);
      const { last_updated_at: _before, ...before } = created.body;
      const { last_updated_at: _after, ...after } = replaced.body;
      expect(after).toEqual(before);
    });

    it('patches title and settings with JSON Patch, answering 204', async () => {
      const created = await createForm(alice, { title: 'Before' });
      const patched = await api(alice, 'PATCH', `/forms/${created.body.id}`, [
        { op: 'replace', path: '/title', value: 'After' },
        { op: 'replace', path: '/settings/is_public', value: false },
        { op: 'add', path: '/settings/meta/description', value: 'for search engines' },
      ]);
      expect(patched.status).toBe(204);
      expect(patched.headers.get('etag')).toBe('"2"');
      const read = await api(alice, 'GET', `/forms/${created.body.id}`);
      expect(read.body.title).toBe('After');
      expect(read.body.settings.is_public).toBe(false);
      expect(read.body.settings.meta.description).toBe('for search engines');
    });

    it('refuses a patch outside title, settings, theme, workspace and cui_settings', async () => {
      const created = await createForm(alice, { title: 'Patch me' });
      const response = await api(alice, 'PATCH', `/forms/${created.body.id}`, [
        { op: 'replace', path: '/fields', value: [] },
      ]);
      expect(response.status).toBe(400);
      expect(response.body.details[0].field).toBe('[0].path');
    });

    it('validates the patched form as a whole', async () => {
      const created = await createForm(alice, { title: 'Patch me' });
      const response = await api(alice, 'PATCH', `/forms/${created.body.id}`, [
        { op: 'add', path: '/settings/milestones', value: [{ field_ref: 'a' }, { field_ref: 'b' }] },
      ]);
      expect(response.status).toBe(400);
      expect(response.body.details[0].field).toBe('settings.milestones');
    });

    it('refuses a write whose If-Match names an old version with 412', async () => {
      const created = await createForm(alice, { title: 'Guarded' });
      const id = created.body.id;
      const first = await api(
        alice,
        'PATCH',
        `/forms/${id}`,
        [{ op: 'replace', path: '/title', value: 'A' }],
        {
          'if-match': '"1"',
        },
      );
      expect(first.status).toBe(204);
      const stale = await api(alice, 'PUT', `/forms/${id}`, { title: 'B' }, { 'if-match': '"1"' });
      expect(stale.status).toBe(412);
      expect(stale.body.code).toBe('PRECONDITION_FAILED');
      expect((await api(alice, 'GET', `/forms/${id}`)).body.title).toBe('A');
    });

    it('never loses one of many concurrent patches', async () => {
      const created = await createForm(alice, { title: 'Busy' });
      const keys = [
        'is_public',
        'autosave_progress',
        'show_progress_bar',
        'show_service_branding',
        'show_question_number',
        'show_key_hint_on_choices',
        'hide_navigation',
        'show_cookie_consent',
      ];
      const answers = await Promise.all(
        keys.map((key) =>
          api(alice, 'PATCH', `/forms/${created.body.id}`, [
            {
              op: 'add',
              path: `/settings/${key}`,
              value: key === 'hide_navigation' || key === 'show_cookie_consent',
            },
          ]),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(keys.map(() => 204));
      const read = await api(alice, 'GET', `/forms/${created.body.id}`);
      for (const key of keys) {
        expect([key, read.body.settings[key]]).toEqual([
          key,
          key === 'hide_navigation' || key === 'show_cookie_consent',
        ]);
      }
      expect(read.headers.get('etag')).toBe(`"${keys.length + 1}"`);
    });

    it('deletes a form with 204; it is gone afterwards', async () => {
      const created = await createForm(alice, { title: 'Doomed' });
      expect((await api(alice, 'DELETE', `/forms/${created.body.id}`)).status).toBe(204);
      expect((await api(alice, 'GET', `/forms/${created.body.id}`)).status).toBe(404);
      expect((await api(alice, 'DELETE', `/forms/${created.body.id}`)).status).toBe(404);
    });
  });
  const { alice, bob } = accounts;

  describe('listing', () => {
    let carol: TestAccount;
    let workspaceId: string;
    const titles = ['Alpha survey', 'Beta quiz', 'Gamma survey', 'Delta poll', 'Epsilon survey'];

    beforeAll(async () => {
      carol = await createTestAccount(db, 'us');
      const workspace = await api(carol, 'POST', '/workspaces', { name: 'Listing' });
      workspaceId = workspace.body.id;
      for (const title of titles) {
        await createForm(carol, { title, workspace: { href: workspace.body.self.href } });
      }
    });

    it('pages through the forms with page and page_size', async () => {
      const pages = await Promise.all(
        [1, 2, 3].map((page) =>
          api(carol, 'GET', `/forms?workspace_id=${workspaceId}&page=${page}&page_size=2`),
        ),
      );
      expect(pages.map((page) => page.body.total_items)).toEqual([5, 5, 5]);
      expect(pages.map((page) => page.body.page_count)).toEqual([3, 3, 3]);
      expect(pages.map((page) => page.body.items.length)).toEqual([2, 2, 1]);
      const seen = pages.flatMap((page) => page.body.items.map((item: { title: string }) => item.title));
      expect([...seen].sort()).toEqual([...titles].sort());
    });

    it('lists newest first by default, and sorts by request', async () => {
      const newest = await api(carol, 'GET', `/forms?workspace_id=${workspaceId}`);
      expect(newest.body.items.map((item: { title: string }) => item.title)).toEqual([...titles].reverse());
      const oldest = await api(
        carol,
        'GET',
        `/forms?workspace_id=${workspaceId}&sort_by=created_at&order_by=asc`,
      );
      expect(oldest.body.items.map((item: { title: string }) => item.title)).toEqual(titles);
      expect(newest.body.items[0]).toEqual({
        id: expect.any(String),
        type: 'quiz',
        title: 'Epsilon survey',
        last_updated_at: expect.any(String),
        created_at: expect.any(String),
        settings: { is_public: true },
        self: { href: `${regions.baseUrl('us')}/forms/${newest.body.items[0].id}` },
        theme: { href: expect.any(String) },
        _links: { display: expect.any(String), responses: expect.any(String) },
      });
    });

    it('searches titles, case-insensitively', async () => {
      const found = await api(carol, 'GET', '/forms?search=SURVEY');
      expect(found.body.total_items).toBe(3);
    });

    it('filters by workspace', async () => {
      await createForm(carol, { title: 'Elsewhere survey' });
      expect((await api(carol, 'GET', `/forms?workspace_id=${workspaceId}`)).body.total_items).toBe(5);
      // The five, the one just made, and the one every test account starts with.
      expect((await api(carol, 'GET', '/forms')).body.total_items).toBe(7);
    });

    it.each([
      ['page_size=201', 'page_size'],
      ['page=0', 'page'],
      ['sort_by=title', 'sort_by'],
      ['order_by=up', 'order_by'],
    ])('refuses %s with 400 naming the parameter', async (query, field) => {
      const response = await api(carol, 'GET', `/forms?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ field, in: 'query' })]);
    });
  });

  describe('workspaces', () => {
    it('lists the default workspace of every account first', async () => {
      const listed = await api(bob, 'GET', '/workspaces');
      expect(listed.status).toBe(200);
      expect(listed.body.items[0]).toEqual({
        id: `${bob.accountId}-default`,
        name: 'My workspace',
        default: true,
        shared: false,
        account_id: bob.accountId,
        members: [
          { name: expect.stringMatching(/^test-/), email: expect.stringContaining('@'), role: 'owner' },
        ],
        forms: {
          count: expect.any(Number),
          href: `${regions.baseUrl('us')}/forms?workspace_id=${bob.accountId}-default`,
        },
        self: { href: `${regions.baseUrl('us')}/workspaces/${bob.accountId}-default` },
      });
    });

    it('creates, reads, renames and deletes a workspace', async () => {
      const created = await api(bob, 'POST', '/workspaces', { name: 'Research' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Research', default: false, forms: { count: 0 } });
      const id = created.body.id;
      const renamed = await api(bob, 'PATCH', `/workspaces/${id}`, [
        { op: 'replace', path: '/name', value: 'Studies' },
      ]);
      expect(renamed.status).toBe(204);
      expect((await api(bob, 'GET', `/workspaces/${id}`)).body.name).toBe('Studies');
      expect((await api(bob, 'DELETE', `/workspaces/${id}`)).status).toBe(204);
      expect((await api(bob, 'GET', `/workspaces/${id}`)).status).toBe(404);
    });

    it('puts a form in the workspace it names, and refuses to delete a workspace holding forms', async () => {
      const workspace = await api(bob, 'POST', '/workspaces', { name: 'Busy' });
      const form = await createForm(bob, { title: 'Inside', workspace: { href: workspace.body.self.href } });
      expect(form.body.workspace.href).toBe(workspace.body.self.href);
      expect((await api(bob, 'GET', `/workspaces/${workspace.body.id}`)).body.forms.count).toBe(1);
      const refused = await api(bob, 'DELETE', `/workspaces/${workspace.body.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('CONFLICT');
    });

    it('refuses to delete the default workspace', async () => {
      const refused = await api(bob, 'DELETE', `/workspaces/${bob.accountId}-default`);
      expect(refused.status).toBe(409);
    });

    it('refuses a workspace without a name', async () => {
      const refused = await api(bob, 'POST', '/workspaces', { title: 'wrong key' });
      expect(refused.status).toBe(400);
      expect(refused.body.details.map((d: { field: string }) => d.field)).toEqual(['name', 'title']);
    });
  });

  describe("Typeform's form model", () => {
    it('round-trips a Typeform form JSON with every field type through POST and GET', async () => {
      const images = new Map<string, string>();
      for (const name of ['cat.png', 'dog.png', 'owl.png'])
        images.set(name, await uploadTestImage(regions.baseUrl('us'), alice.token, name));
      const sent = typeformFormWithEveryField((name) => images.get(name)!);
      const created = await createForm(alice, sent);
      const read = await api(alice, 'GET', `/forms/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.text).toBe(created.text);
      const form = read.body;
      expect(form.type).toBe('score');
      // Typeform's names of the settings we rename, stored under ours.
      expect(form.settings).toMatchObject({
        show_service_branding: false,
        web_analytics: 'UA-12345-1',
        ad_pixel: '123456789012345',
        tag_manager: 'GTM-ABC123',
        partial_responses_to_all_integrations: true,
      });
      expect(form.settings).not.toHaveProperty('show_typeform_branding');
      // Every field, in order, with what was sent (ids added, defaults filled).
      const sentFields = sent.fields as Array<Record<string, unknown>>;
      expect(form.fields.map((f: { type: string }) => f.type)).toEqual(sentFields.map((f) => f.type));
      sentFields.forEach((field, i) => expect(form.fields[i]).toMatchObject(field));
      const address = form.fields.find((f: { ref: string }) => f.ref === 'postal');
      expect(
        address.properties.fields.map(
          (f: { properties: { subfield_key: string } }) => f.properties.subfield_key,
        ),
      ).toEqual(['address_line1', 'address_line2', 'city', 'state', 'zip', 'country']);
      // What was read back can be sent back as it is, and changes nothing.
      const replaced = await api(alice, 'PUT', `/forms/${created.body.id}`, form);
      expect(replaced.status).toBe(200);
      expect(replaced.body.fields).toEqual(form.fields);
      expect(replaced.body.type).toBe('score');
    });

    it.each(['quiz', 'classification', 'score', 'branching'])('keeps the form type %s', async (type) => {
      const created = await createForm(bob, { title: `A ${type}`, type });
      expect(created.body.type).toBe(type);
      const listed = await api(bob, 'GET', `/forms?search=${encodeURIComponent(`A ${type}`)}`);
      expect(listed.body.items[0]).toMatchObject({ id: created.body.id, type });
    });

    it('refuses a form type Typeform does not have', async () => {
      const refused = await api(bob, 'POST', '/forms', { title: 'x', type: 'poll' });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([expect.objectContaining({ field: 'type' })]);
    });
  });

  describe('form messages', () => {
    it('reads and replaces the messages of a form, never showing them in the form', async () => {
      const form = await createForm(alice, {
        title: 'Messages',
        fields: [{ title: 'Q', type: 'short_text' }],
      });
      const path = `/forms/${form.body.id}/messages`;
      expect((await api(alice, 'GET', path)).body).toEqual({});
      const put = await api(alice, 'PUT', path, {
        'label.button.ok': 'Go on',
        'label.error.required': 'Needed',
      });
      expect(put.status).toBe(204);
      expect((await api(alice, 'GET', path)).body).toEqual({
        'label.button.ok': 'Go on',
        'label.error.required': 'Needed',
      });
      // PUT replaces them all; the form's own PUT keeps them.
      await api(alice, 'PUT', path, { 'label.button.submit': 'Send' });
      const read = await api(alice, 'GET', `/forms/${form.body.id}`);
      expect(read.body.messages).toBeUndefined();
      expect((await api(alice, 'PUT', `/forms/${form.body.id}`, read.body)).status).toBe(200);
      expect((await api(alice, 'GET', path)).body).toEqual({ 'label.button.submit': 'Send' });
    });

    it.each([
      ['an unknown key', { 'label.bogus': 'x' }, 'label.bogus'],
      ['HTML', { 'label.button.ok': '<b>Go</b>' }, 'label.button.ok'],
      ['a message over its limit', { 'label.yes.shortcut': 'YY' }, 'label.yes.shortcut'],
    ])('refuses %s', async (_name, body, field) => {
      const form = await createForm(alice, { title: 'Bad messages' });
      const refused = await api(alice, 'PUT', `/forms/${form.body.id}/messages`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([expect.objectContaining({ field })]);
    });

    it("answers 404 for another account's form", async () => {
      const form = await createForm(alice, { title: 'Private messages' });
      expect((await api(bob, 'GET', `/forms/${form.body.id}/messages`)).status).toBe(404);
      expect((await api(bob, 'PUT', `/forms/${form.body.id}/messages`, {})).status).toBe(404);
    });
  });

  describe('workspace members', () => {
    it('adds and removes members with JSON Patch on /members, the owner always first', async () => {
      const workspace = await api(bob, 'POST', '/workspaces', { name: 'Shared' });
      const id = workspace.body.id;
      const patch = (operations: unknown) => api(bob, 'PATCH', `/workspaces/${id}`, operations);
      expect(
        (
          await patch([
            { op: 'add', path: '/members', value: { email: 'Ann@Example.com' } },
            { op: 'add', path: '/members', value: { email: 'ben@example.com' } },
            { op: 'replace', path: '/name', value: 'Shared team' },
          ])
        ).status,
      ).toBe(204);
      let read = await api(bob, 'GET', `/workspaces/${id}`);
      expect(read.body).toMatchObject({ name: 'Shared team', shared: true, account_id: bob.accountId });
      expect(read.body.members).toEqual([
        {
          name: expect.stringMatching(/^test-/),
          email: expect.stringContaining('@example.com'),
          role: 'owner',
        },
        { name: 'ann', email: 'ann@example.com', role: 'member' },
        { name: 'ben', email: 'ben@example.com', role: 'member' },
      ]);
      // The role an add names (Typeform's example adds an owner) is the member's access, shown
      // with them; an add without one leaves it as it was.
      expect(
        (await patch([{ op: 'add', path: '/members', value: { email: 'ben@example.com', role: 'owner' } }]))
          .status,
      ).toBe(204);
      await patch([{ op: 'add', path: '/members', value: { email: 'ben@example.com' } }]);
      read = await api(bob, 'GET', `/workspaces/${id}`);
      expect(read.body.members[2]).toEqual({ name: 'ben', email: 'ben@example.com', role: 'owner' });
      const badRole = await patch([
        { op: 'add', path: '/members', value: { email: 'cy@example.com', role: 'admin' } },
      ]);
      expect(badRole.status).toBe(400);
      // Adding a member twice is one member; removing one leaves the others.
      await patch([{ op: 'add', path: '/members', value: { email: 'ann@example.com' } }]);
      await patch([{ op: 'remove', path: '/members', value: { email: 'ann@example.com' } }]);
      read = await api(bob, 'GET', `/workspaces/${id}`);
      expect(read.body.members.map((m: { email: string }) => m.email).slice(1)).toEqual(['ben@example.com']);
    });

    it.each([
      ['a value without an email', [{ op: 'add', path: '/members', value: { name: 'x' } }]],
      ['an address that is not one', [{ op: 'add', path: '/members', value: { email: 'nope' } }]],
      ['replacing the members', [{ op: 'replace', path: '/members', value: [] }]],
    ])('refuses %s, changing nothing', async (_name, operations) => {
      const workspace = await api(bob, 'POST', '/workspaces', { name: 'Strict' });
      const refused = await api(bob, 'PATCH', `/workspaces/${workspace.body.id}`, [
        { op: 'replace', path: '/name', value: 'Changed' },
        ...operations,
      ]);
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([expect.objectContaining({ field: '[1].value' })]);
      expect((await api(bob, 'GET', `/workspaces/${workspace.body.id}`)).body.name).toBe('Strict');
    });

    it('lets member accounts in by role: members read, owners also patch, only the owning account deletes', async () => {
      const aliceEmail: string = (await api(alice, 'GET', '/me')).body.email;
      const bobEmail: string = (await api(bob, 'GET', '/me')).body.email;
      const workspace = await api(bob, 'POST', '/workspaces', { name: 'Team' });
      const id: string = workspace.body.id;
      const asAlice = (method: string, body?: unknown) => api(alice, method, `/workspaces/${id}`, body);
      const share = (role: string) =>
        api(bob, 'PATCH', `/workspaces/${id}`, [
          { op: 'add', path: '/members', value: { email: aliceEmail.toUpperCase(), role } },
        ]);
      const rename = [{ op: 'replace', path: '/name', value: 'Renamed by Alice' }];

      // Not shared with her: nothing there, as for any other account's workspace.
      expect((await asAlice('GET')).body.code).toBe('WORKSPACE_NOT_FOUND');
      expect((await asAlice('PATCH', rename)).status).toBe(404);

      // A member reads it, and may change nothing.
      expect((await share('member')).status).toBe(204);
      const read = await asAlice('GET');
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id, account_id: bob.accountId, name: 'Team' });
      const refused = await asAlice('PATCH', rename);
      expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
      expect((await asAlice('DELETE')).status).toBe(403);
      expect((await api(bob, 'GET', `/workspaces/${id}`)).body.name).toBe('Team');

      // An owner renames it and shares it on, but cannot remove the owning account nor delete it.
      expect((await share('owner')).status).toBe(204);
      expect((await asAlice('PATCH', rename)).status).toBe(204);
      expect(
        (await asAlice('PATCH', [{ op: 'add', path: '/members', value: { email: 'dee@example.com' } }]))
          .status,
      ).toBe(204);
      expect(
        (await asAlice('PATCH', [{ op: 'remove', path: '/members', value: { email: bobEmail } }])).status,
      ).toBe(400);
      const notDeleted = await asAlice('DELETE');
      expect([notDeleted.status, notDeleted.body.code]).toEqual([403, 'FORBIDDEN']);
      const after = await api(bob, 'GET', `/workspaces/${id}`);
      expect(after.body.name).toBe('Renamed by Alice');
      expect(after.body.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
        [bobEmail, 'owner'],
        [aliceEmail.toLowerCase(), 'owner'],
        ['dee@example.com', 'member'],
      ]);

      // Removed, she is out again.
      await api(bob, 'PATCH', `/workspaces/${id}`, [
        { op: 'remove', path: '/members', value: { email: aliceEmail } },
      ]);
      expect((await asAlice('GET')).status).toBe(404);
      expect((await api(bob, 'DELETE', `/workspaces/${id}`)).status).toBe(204);
    });

    it("refuses to remove the workspace's owner", async () => {
      const me = await api(bob, 'GET', '/me');
      const workspace = await api(bob, 'POST', '/workspaces', { name: 'Owned' });
      const refused = await api(bob, 'PATCH', `/workspaces/${workspace.body.id}`, [
        { op: 'remove', path: '/members', value: { email: me.body.email } },
      ]);
      expect(refused.status).toBe(400);
    });

    it("lists the account's workspaces at /accounts/{account_id}/workspaces, and no other account's", async () => {
      const own = await api(bob, 'GET', `/accounts/${bob.accountId}/workspaces?page_size=200`);
      expect(own.status).toBe(200);
      expect(own.body.items[0]).toMatchObject({ id: `${bob.accountId}-default`, account_id: bob.accountId });
      expect(own.body.total_items).toBe((await api(bob, 'GET', '/workspaces')).body.total_items);
      const other = await api(bob, 'GET', `/accounts/${alice.accountId}/workspaces`);
      expect(other.status).toBe(404);
      expect(other.body.code).toBe('NOT_FOUND');
    });
  });

  describe('account', () => {
    it('tells who the token belongs to and the base address of its region', async () => {
      const me = await api(bob, 'GET', '/me', undefined, undefined, 'us');
      expect(me.status).toBe(200);
      expect(me.body).toEqual({
        user_id: bob.accountId,
        alias: expect.any(String),
        email: expect.stringContaining('@example.com'),
        language: 'en',
        region: 'eu',
        base_url: regions.baseUrl('eu'),
      });
      expect((await api(alice, 'GET', '/me', undefined, undefined, 'eu')).body.base_url).toBe(
        regions.baseUrl('us'),
      );
    });
  });

  describe('scopes', () => {
    it('lets a forms:read token read but not write', async () => {
      const reader = {
        ...alice,
        token: await mintPersonalAccessToken(db, {
          accountId: alice.accountId,
          name: 'reader',
          scopes: ['forms:read'],
        }),
      };
      expect((await api(reader, 'GET', `/forms/${alice.formId}`)).status).toBe(200);
      const writes = [
        await api(reader, 'POST', '/forms', { title: 'nope' }),
        await api(reader, 'PUT', `/forms/${alice.formId}`, { title: 'nope' }),
        await api(reader, 'PATCH', `/forms/${alice.formId}`, [
          { op: 'replace', path: '/title', value: 'nope' },
        ]),
        await api(reader, 'DELETE', `/forms/${alice.formId}`),
        await api(reader, 'POST', '/workspaces', { name: 'nope' }),
      ];
      expect(writes.map((write) => [write.status, write.body.code])).toEqual(
        writes.map(() => [403, 'INSUFFICIENT_SCOPE']),
      );
      expect(writes[0].headers.get('www-authenticate')).toContain('insufficient_scope');
    });
  });

  describe('tenant isolation', () => {
    it("answers 404 for another account's form to every verb, and changes nothing", async () => {
      const form = await createForm(alice, { title: 'Private to alice' });
      const path = `/forms/${form.body.id}`;
      const attempts = [
        await api(bob, 'GET', path),
        await api(bob, 'PUT', path, { title: 'stolen' }),
        await api(bob, 'PATCH', path, [{ op: 'replace', path: '/title', value: 'stolen' }]),
        await api(bob, 'DELETE', path),
      ];
      expect(attempts.map((attempt) => [attempt.status, attempt.body.code])).toEqual(
        attempts.map(() => [404, 'FORM_NOT_FOUND']),
      );
      const read = await api(alice, 'GET', path);
      expect(read.text).toBe(form.text);
      const bobsList = await api(bob, 'GET', '/forms?page_size=200');
      expect(bobsList.body.items.map((item: { id: string }) => item.id)).not.toContain(form.body.id);
    });

    it("answers 404 for another account's workspace, and refuses to put a form in it", async () => {
      const path = `/workspaces/${alice.accountId}-default`;
      const attempts = [
        await api(bob, 'GET', path),
        await api(bob, 'PATCH', path, [{ op: 'replace', path: '/name', value: 'x' }]),
        await api(bob, 'DELETE', path),
      ];
      expect(attempts.map((attempt) => attempt.status)).toEqual([404, 404, 404]);
      const intruder = await api(bob, 'POST', '/forms', {
        title: 'x',
        workspace: { href: `${regions.baseUrl('us')}${path}` },
      });
      expect(intruder.status).toBe(400);
      expect(intruder.body.details[0].field).toBe('workspace.href');
      expect((await api(bob, 'GET', `/forms?workspace_id=${alice.accountId}-default`)).body.total_items).toBe(
        0,
      );
    });
  });
});
