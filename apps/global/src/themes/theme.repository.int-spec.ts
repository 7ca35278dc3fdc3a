import type { ThemeBody } from '@formline/contracts';
import { useScratchAccounts } from '@formline/testing';
import { ThemeRepository } from './theme.repository';

const theme = (name: string, button = '#000000'): ThemeBody => ({
  name,
  font: 'Karla',
  colors: { question: '#3D3D3D', answer: '#4FB0AE', button, background: '#FFFFFF' },
  rounded_corners: 'small',
});

// ThemeRepository against PostgreSQL: every query is scoped by account, so
// another account's theme is not found, replaced, deleted or listed; the
// listing pages in creation order.
describe('ThemeRepository against PostgreSQL', () => {
  const accounts = useScratchAccounts({ ada: 'eu', bob: 'us' });
  let themes: ThemeRepository;
  let ada: string;
  let bob: string;

  beforeAll(() => {
    themes = new ThemeRepository(accounts.client);
  });
  beforeEach(() => ({ ada, bob } = accounts.ids));

  it('creates a theme with its name apart from its properties, and finds it as its account’s only', async () => {
    const created = await themes.create(ada, theme('Calm'));
    const { name: _name, ...properties } = theme('Calm');
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Calm',
      properties,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await themes.findOwned(ada, created.id)).toEqual(created);
    expect(await themes.findOwned(bob, created.id)).toBeUndefined();
    expect(await themes.findOwned(ada, 'no-such-theme')).toBeUndefined();
  });

  it("replaces only the account's own theme", async () => {
    const created = await themes.create(ada, theme('Calm'));
    expect(await themes.replace(bob, created.id, theme('Taken', '#FF0000'))).toBeUndefined();
    expect((await themes.findOwned(ada, created.id))?.name).toBe('Calm');

    const replaced = await themes.replace(ada, created.id, theme('Bold', '#FF0000'));
    expect(replaced).toMatchObject({
      id: created.id,
      name: 'Bold',
      properties: { colors: { button: '#FF0000' } },
    });
    expect(replaced!.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());
    expect(await themes.replace(ada, 'no-such-theme', theme('Bold'))).toBeUndefined();
  });

  it('replaces a theme only as it was read: changed meanwhile, or not the account’s', async () => {
    const seen = await themes.create(ada, theme('Calm'));
    // The same name, another colour: only the properties tell it changed.
    await themes.replace(ada, seen.id, theme('Calm', '#FF0000'));
    expect(await themes.replaceIfUnchanged(ada, seen.id, theme('Late'), seen)).toBe('changed');
    const now = (await themes.findOwned(ada, seen.id))!;
    expect(await themes.replaceIfUnchanged(ada, seen.id, theme('Merged'), now)).toMatchObject({
      name: 'Merged',
    });
    expect(await themes.replaceIfUnchanged(bob, seen.id, theme('Taken'), now)).toBeUndefined();
  });

  it("deletes only the account's own theme, once", async () => {
    const created = await themes.create(ada, theme('Calm'));
    expect(await themes.delete(bob, created.id)).toBe(false);
    expect(await themes.delete(ada, created.id)).toBe(true);
    expect(await themes.findOwned(ada, created.id)).toBeUndefined();
    expect(await themes.delete(ada, created.id)).toBe(false);
  });

  it("pages the account's themes oldest first, ties by id, with the total", async () => {
    const created = [];
    for (const name of ['one', 'two', 'three', 'four', 'five'])
      created.push(await themes.create(ada, theme(name)));
    await themes.create(bob, theme('bobs'));
    // One, two, three a second apart (created one after another, two may
    // share a millisecond, and then their random ids would order them).
    for (const [i, { id }] of created.slice(0, 3).entries())
      await accounts.client.$executeRaw`
        UPDATE themes SET created_at = ${new Date(Date.UTC(2026, 0, 2, 0, 0, i))} WHERE id = ${id}`;
    // Two themes created in the same instant: the id decides.
    const [first, second] = [created[3], created[4]].sort((x, y) => (x.id < y.id ? -1 : 1));
    await accounts.client.$executeRaw`
      UPDATE themes SET created_at = '2026-01-01T00:00:00Z' WHERE id IN (${first.id}, ${second.id})`;
    const expected = [first.name, second.name, 'one', 'two', 'three'];

    const pages = [];
    for (let skip = 0; skip < 6; skip += 2) pages.push(await themes.list(ada, { skip, take: 2 }));
    expect(pages.map((page) => page.total)).toEqual([5, 5, 5]);
    expect(pages.flatMap((page) => page.themes.map((listed) => listed.name))).toEqual(expected);
    expect(await themes.list(bob, { skip: 0, take: 10 })).toMatchObject({
      total: 1,
      themes: [{ name: 'bobs' }],
    });
  });
});
