import { createClient } from '@typeform/api-client';
import sharp from 'sharp';
import { useTestRegions } from '@formline/testing';

// One US stack for both blocks below: an EU account's forms on the US
// address, and a US account's responses data.
const { regions, accounts } = useTestRegions({
  regions: ['us'],
  apps: ['gateway', 'global', 'responses', 'webhooks', 'media'],
  accounts: { eu: 'eu', us: 'us' },
});

// A client written for Typeform's Create API works unchanged against ours:
// the official JavaScript SDK, pointed at our base address.
describe('the official Typeform SDK (@typeform/api-client)', () => {
  const account = accounts.eu;
  let typeform: ReturnType<typeof createClient>;

  beforeAll(() => {
    typeform = createClient({ token: account.token, apiBaseUrl: regions.baseUrl('us') });
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

  it('adds, lists, reads in every kind of size, and deletes images', async () => {
    // A 40×30 PNG, made here: the SDK sends it as base64.
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const image = await typeform.images.add({ image: png.toString('base64'), fileName: 'sdk.png' });
    expect(image).toMatchObject({ file_name: 'sdk.png', width: 40, height: 30, media_type: 'image/png' });
    const id = image.id!;
    expect((await typeform.images.list()).map((item) => item.id)).toContain(id);
    expect(await typeform.images.get({ id })).toEqual(image);
    expect(await typeform.images.get({ id, size: 'thumbnail' })).toMatchObject({ id, width: 40 });
    expect(await typeform.images.get({ id, backgroundSize: 'tablet' })).toMatchObject({ id, height: 30 });
    expect(await typeform.images.get({ id, choiceSize: 'supersize' })).toMatchObject({ id, width: 30 });
    await typeform.images.delete({ id });
    await expect(typeform.images.get({ id })).rejects.toMatchObject({ code: 'IMAGE_NOT_FOUND' });
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

// The SDK's webhooks, responses and insights calls, against the region of
// the account's responses.
describe('the official Typeform SDK on responses data', () => {
  const account = accounts.us;

  let typeform: ReturnType<typeof createClient>;

  beforeAll(() => {
    typeform = createClient({ token: account.token, apiBaseUrl: regions.baseUrl('us') });
  });

  it('creates, reads, lists, toggles and deletes webhooks', async () => {
    const created = await typeform.webhooks.create({
      uid: account.formId,
      tag: 'sdk',
      url: 'https://example.com/sdk',
      enabled: true,
    });
    expect(created).toMatchObject({ tag: 'sdk', url: 'https://example.com/sdk', enabled: true });
    expect(await typeform.webhooks.get({ uid: account.formId, tag: 'sdk' })).toMatchObject({ tag: 'sdk' });
    const listed = await typeform.webhooks.list({ uid: account.formId });
    expect(listed.items?.map((hook) => hook.tag)).toEqual(['sdk']);
    await typeform.webhooks.toggle({ uid: account.formId, tag: 'sdk', enabled: false });
    expect((await typeform.webhooks.get({ uid: account.formId, tag: 'sdk' })).enabled).toBe(false);
    await typeform.webhooks.delete({ uid: account.formId, tag: 'sdk' });
    await expect(typeform.webhooks.get({ uid: account.formId, tag: 'sdk' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('lists and deletes responses, and reads the insights summary', async () => {
    const form = await typeform.forms.create({
      data: { title: 'SDK responses', fields: [{ ref: 'name', title: 'Name?', type: 'short_text' }] },
    });
    const uid = form.id!;
    for (const name of ['Ann', 'Ben', 'Cy']) {
      const submitted = await fetch(`${regions.baseUrl('us')}/forms/${uid}/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: [{ field: { ref: 'name' }, type: 'text', text: name }] }),
      });
      expect(submitted.status).toBe(201);
    }
    const all = await typeform.responses.list({ uid, page: 'auto' });
    expect(all.items).toHaveLength(3);
    const firstPage = await typeform.responses.list({ uid, pageSize: 2 });
    expect(firstPage.items).toHaveLength(2);
    await typeform.responses.delete({ uid, ids: [all.items[0].response_id!] });
    expect((await typeform.responses.list({ uid })).total_items).toBe(2);

    const insights = await typeform.insights.summary({ uid });
    expect(insights.form.summary).toMatchObject({ responses_count: 2, completion_rate: 100 });
    expect(insights.fields).toEqual([expect.objectContaining({ ref: 'name', views: 2, dropoffs: 0 })]);
  });
});
