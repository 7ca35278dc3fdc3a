import { createClient } from '@typeform/api-client';
import {
  createTestAccount,
  startTestRegions,
  testGlobalDatabase,
  type TestAccount,
  type TestRegions,
} from '@formline/testing';

// A client written for Typeform's Create API works unchanged against ours:
// the official JavaScript SDK, pointed at our base address.
describe('the official Typeform SDK (@typeform/api-client)', () => {
  const db = testGlobalDatabase();
  let regions: TestRegions;
  let account: TestAccount;
  let typeform: ReturnType<typeof createClient>;

  beforeAll(async () => {
    account = await createTestAccount(db, 'eu');
    regions = await startTestRegions({ name: 'typeform-sdk', regions: ['us'], apps: ['gateway', 'forms'] });
    typeform = createClient({ token: account.token, apiBaseUrl: regions.baseUrl('us') });
  });

  afterAll(async () => {
    await regions?.stop();
    await db.$disconnect();
  });

  it('creates, reads, lists, replaces, patches, copies and deletes forms', async () => {
    const created = await typeform.forms.create({
      data: {
        title: 'SDK form',
        fields: [
          { ref: 'name', title: 'Name?', type: 'short_text', validations: { required: true } },
          {
            ref: 'pick',
            title: 'Pick one',
            type: 'multiple_choice',
            properties: { choices: [{ label: 'A' }, { label: 'B' }] },
          },
        ],
        settings: { is_public: true, progress_bar: 'percentage' },
      },
    });
    expect(created.id).toBeDefined();
    const id = created.id!;

    const read = await typeform.forms.get({ uid: id });
    expect(read.fields?.map((field) => field.ref)).toEqual(['name', 'pick']);

    const listed = await typeform.forms.list({ search: 'SDK' });
    expect(listed.items?.map((item) => item.id)).toContain(id);
    const everything = await typeform.forms.list({ page: 'auto' });
    expect(everything.total_items).toBe(everything.items?.length);

    const replaced = await typeform.forms.update({
      uid: id,
      override: true,
      data: { ...read, title: 'SDK form v2' },
    });
    expect(replaced.title).toBe('SDK form v2');
    expect(replaced.fields?.[0].id).toBe(read.fields?.[0].id);

    await typeform.forms.update({
      uid: id,
      data: [{ op: 'replace', path: '/settings/is_public', value: false }],
    });
    expect((await typeform.forms.get({ uid: id })).settings?.is_public).toBe(false);

    const copy = await typeform.forms.copy({ uid: id, workspaceHref: read.workspace!.href! });
    expect(copy.id).not.toBe(id);
    expect(copy.title).toBe('SDK form v2');

    await typeform.forms.delete({ uid: id });
    await expect(typeform.forms.get({ uid: id })).rejects.toMatchObject({ code: 'FORM_NOT_FOUND' });
  });

  it('manages workspaces', async () => {
    const workspace = await typeform.workspaces.add({ name: 'SDK workspace' });
    expect(workspace.name).toBe('SDK workspace');
    await typeform.workspaces.update({
      id: workspace.id!,
      data: [{ op: 'replace', path: '/name', value: 'Renamed' }],
    });
    expect((await typeform.workspaces.get({ id: workspace.id! })).name).toBe('Renamed');
    const listed = await typeform.workspaces.list({ page: 'auto' });
    expect(listed.items?.map((item) => item.id)).toContain(workspace.id);
    await typeform.workspaces.delete({ id: workspace.id! });
  });

  it('adds and removes workspace members', async () => {
    const workspace = await typeform.workspaces.add({ name: 'SDK team' });
    expect(workspace.account_id).toBe(account.accountId);
    await typeform.workspaces.addMembers({
      id: workspace.id!,
      members: ['ann@example.com', 'ben@example.com'],
    });
    let read = await typeform.workspaces.get({ id: workspace.id! });
    expect(read.members.map((member) => [member.email, member.role])).toEqual([
      [expect.stringContaining('@example.com'), 'owner'],
      ['ann@example.com', 'member'],
      ['ben@example.com', 'member'],
    ]);
    await typeform.workspaces.removeMembers({ id: workspace.id!, members: 'ann@example.com' });
    read = await typeform.workspaces.get({ id: workspace.id! });
    expect(read.members.map((member) => member.email).slice(1)).toEqual(['ben@example.com']);
  });

  it("reads and updates a form's messages", async () => {
    const form = await typeform.forms.create({ data: { title: 'SDK messages', type: 'quiz' } as never });
    await typeform.forms.messages.update({
      uid: form.id!,
      data: { 'label.button.ok': 'Onwards', 'label.yes.default': 'Sure' },
    });
    expect(await typeform.forms.messages.get({ uid: form.id! })).toEqual({
      'label.button.ok': 'Onwards',
      'label.yes.default': 'Sure',
    });
  });

  it('surfaces our error body as the SDK error', async () => {
    const error: unknown = await typeform.forms.create({ data: { title: '' } }).catch((e: unknown) => e);
    // (The SDK's ES5 build loses ApiError's prototype, so no instanceof check.)
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ field: 'title' })],
    });
  });
});
