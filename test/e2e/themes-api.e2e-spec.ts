import { createClient } from '@typeform/api-client';
import { callApi, useTestRegions } from '@formline/testing';

// Typeform's Themes API on both base addresses, scoped by account, with the
// built-in default theme that every form's `theme.href` points at.
describe('Themes API', () => {
  const { accounts, api, baseUrl } = useTestRegions({
    apps: ['gateway', 'global', 'media'],
    extraEnv: ({ scratchDir }) => ({ IMAGE_STORAGE_DIR: scratchDir }),
    accounts: { alice: 'us', bob: 'eu' },
  });

  const theme = {
    name: 'Night',
    font: 'Karla',
    colors: { question: '#FFFFFF', answer: '#F5C518', button: '#F5C518', background: '#101820' },
  };

  it("resolves every form's default theme.href", async () => {
    const form = await api(accounts.alice, 'GET', `/forms/${accounts.alice.formId}`);
    const href: string = form.body.theme.href;
    expect(href).toBe(`${baseUrl('us')}/themes/default`);
    const resolved = await callApi(href, { token: accounts.alice.token });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ id: 'default', visibility: 'public', font: 'Source Sans Pro' });
  });

  it('creates, reads, lists, replaces, patches and deletes a theme', async () => {
    const created = await api(accounts.alice, 'POST', '/themes', theme);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      ...theme,
      visibility: 'private',
      has_transparent_button: false,
      fields: { alignment: 'left', font_size: 'medium' },
      rounded_corners: 'small',
    });
    const id: string = created.body.id;

    // The same theme on the other region's address (global data, region rule 1).
    const read = await api(accounts.alice, 'GET', `/themes/${id}`, undefined, 'eu');
    expect(read.body).toEqual(created.body);

    const listed = await api(accounts.alice, 'GET', '/themes?page_size=200');
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual(['default', id]);
    expect(listed.body.total_items).toBe(2);
    const second = await api(accounts.alice, 'GET', '/themes?page=2&page_size=1');
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual([id]);

    const replaced = await api(accounts.alice, 'PUT', `/themes/${id}`, { ...read.body, name: 'Night 2' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id, name: 'Night 2', font: 'Karla' });

    const patched = await api(accounts.alice, 'PATCH', `/themes/${id}`, {
      colors: { button: '#000000' },
      rounded_corners: 'large',
    });
    expect(patched.status).toBe(200);
    expect(patched.body.colors).toEqual({ ...theme.colors, button: '#000000' });
    expect(patched.body).toMatchObject({ name: 'Night 2', rounded_corners: 'large' });

    expect((await api(accounts.alice, 'DELETE', `/themes/${id}`)).status).toBe(204);
    expect((await api(accounts.alice, 'GET', `/themes/${id}`)).body.code).toBe('THEME_NOT_FOUND');
  });

  it("answers 404 for another account's theme, and changes nothing", async () => {
    const { body } = await api(accounts.alice, 'POST', '/themes', theme);
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', theme],
      ['PATCH', { name: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await api(accounts.bob, method, `/themes/${body.id}`, payload);
      expect({ method, status: answer.status, code: answer.body?.code }).toEqual({
        method,
        status: 404,
        code: 'THEME_NOT_FOUND',
      });
    }
    const bobs = await api(accounts.bob, 'GET', '/themes');
    expect(bobs.body.items.map((item: { id: string }) => item.id)).toEqual(['default']);
    expect((await api(accounts.alice, 'GET', `/themes/${body.id}`)).body.name).toBe('Night');
  });

  it('refuses invalid themes and changes to the built-in one', async () => {
    const invalid = await api(accounts.alice, 'POST', '/themes', {
      ...theme,
      font: 'Comic Sans',
      colors: { ...theme.colors, button: 'red' },
      extra: 1,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details.map((detail: { field: string }) => detail.field).sort()).toEqual(
      expect.arrayContaining(['colors.button', 'font']),
    );
    const missing = await api(accounts.alice, 'POST', '/themes', { name: 'No colours' });
    expect(missing.status).toBe(400);
    expect((await api(accounts.alice, 'PATCH', '/themes/default', { name: 'Mine' })).status).toBe(409);
    expect((await api(accounts.alice, 'DELETE', '/themes/default')).status).toBe(409);
  });

  it("takes a background picture only from the account's own images, on create, replace and patch", async () => {
    const { alice, bob } = accounts;
    // A 1×1 PNG.
    const pixel =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const upload = async (account: typeof alice) => {
      const image = await api(account, 'POST', '/images', { image: pixel, file_name: 'pixel.png' });
      expect(image.status).toBe(201);
      return image.body.src as string;
    };
    const own = await upload(alice);
    const bobs = await upload(bob);
    const refusedFor = (response: {
      status: number;
      body: { details?: { code: string; field: string }[] };
    }) => [response.status, response.body.details?.map((detail) => [detail.code, detail.field])];
    const refusal = [400, [['IMAGE_NOT_FOUND', 'background.href']]];

    const outside = {
      ...theme,
      background: { href: 'https://images.example.com/sky.jpg', layout: 'fullscreen' },
    };
    expect(refusedFor(await api(alice, 'POST', '/themes', outside))).toEqual(refusal);
    const another = { ...theme, background: { href: bobs } };
    expect(refusedFor(await api(alice, 'POST', '/themes', another))).toEqual(refusal);

    const created = await api(alice, 'POST', '/themes', { ...theme, background: { href: own } });
    expect(created.status).toBe(201);
    expect(created.body.background.href).toBe(own);
    const id: string = created.body.id;
    expect(refusedFor(await api(alice, 'PUT', `/themes/${id}`, outside))).toEqual(refusal);
    expect(refusedFor(await api(alice, 'PATCH', `/themes/${id}`, { background: { href: bobs } }))).toEqual(
      refusal,
    );
    expect((await api(alice, 'GET', `/themes/${id}`)).body.background.href).toBe(own);
    const patched = await api(alice, 'PATCH', `/themes/${id}`, { background: { brightness: -0.3 } });
    expect(patched.status).toBe(200);
    expect(patched.body.background).toMatchObject({ href: own, brightness: -0.3 });
  });

  it('needs the themes scopes', async () => {
    const response = await callApi(`${baseUrl('us')}/themes`, {});
    expect(response.status).toBe(401);
  });

  it("works with the official SDK's themes calls", async () => {
    const typeform = createClient({ token: accounts.alice.token, apiBaseUrl: baseUrl('us') });
    const created = await typeform.themes.create({
      name: 'SDK theme',
      font: 'Lato',
      colors: theme.colors,
      roundedCorners: 'none',
    });
    expect(created).toMatchObject({ name: 'SDK theme', font: 'Lato', rounded_corners: 'none' });
    const updated = await typeform.themes.update({
      id: created.id!,
      name: 'SDK theme 2',
      font: 'Lora',
      colors: theme.colors,
    });
    expect(updated).toMatchObject({ id: created.id, name: 'SDK theme 2', font: 'Lora' });
    expect((await typeform.themes.get({ id: created.id! })).name).toBe('SDK theme 2');
    const all = await typeform.themes.list({ page: 'auto' });
    expect(all.items?.map((item) => item.id)).toContain(created.id);
    await typeform.themes.delete({ id: created.id! });
    await expect(typeform.themes.get({ id: created.id! })).rejects.toThrow();
  });

  it('lands parallel PATCHes of different colours, each merged into the theme as it is', async () => {
    const created = await api(accounts.alice, 'POST', '/themes', theme);
    const id: string = created.body.id;
    const colours = { question: '#000001', answer: '#000002', button: '#000003', background: '#000004' };
    const answers = await Promise.all(
      Object.entries(colours).map(([key, value]) =>
        api(accounts.alice, 'PATCH', `/themes/${id}`, { colors: { [key]: value } }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect((await api(accounts.alice, 'GET', `/themes/${id}`)).body.colors).toEqual(colours);
  });
});
