import { createAccount } from '@formline/admin';
import type { GlobalPrismaClient } from '@formline/db';
import { parseFormDefinition, type FormDefinition } from '@formline/form-definition';
import { emptyTables, scratchGlobalDatabase, type ScratchDatabase } from '@formline/testing';
import { FormRepository, type FormListQuery } from './form.repository';

const definition = (title: string): FormDefinition => parseFormDefinition({ title }).definition;

// FormRepository against PostgreSQL: lookups take any account's form (access
// is FormAccess's decision), updates queue on the form's row lock, deletes are
// the owner's and record the purge in the same transaction, and the listing
// pages the account's own forms with those of the workspaces shared with it.
describe('FormRepository against PostgreSQL', () => {
  let database: ScratchDatabase<GlobalPrismaClient>;
  let forms: FormRepository;
  let ada: { accountId: string; defaultWorkspaceId: string };
  let bob: { accountId: string; defaultWorkspaceId: string };

  beforeAll(async () => {
    database = await scratchGlobalDatabase();
    forms = new FormRepository(database.client, { DATABASE_POOL_SIZE: 10, DATABASE_POOL_TIMEOUT_MS: 2000 });
  });
  afterAll(() => database?.dispose());
  beforeEach(async () => {
    await emptyTables(database.client);
    ada = await createAccount(database.client, { alias: 'ada', email: 'ada@example.com', region: 'eu' });
    bob = await createAccount(database.client, { alias: 'bob', email: 'bob@example.com', region: 'us' });
  });

  const create = (owner: typeof ada, id: string, title = id, workspaceId = owner.defaultWorkspaceId) =>
    forms.create({ id, accountId: owner.accountId, workspaceId, definition: definition(title) });

  it("creates a form and finds it, with its owner's region, from any account", async () => {
    const survey = definition('Customer survey');
    const created = await forms.create({
      id: 'f-1',
      accountId: ada.accountId,
      workspaceId: ada.defaultWorkspaceId,
      definition: survey,
    });
    expect(created).toMatchObject({
      id: 'f-1',
      accountId: ada.accountId,
      region: 'eu',
      title: 'Customer survey',
      workspaceId: ada.defaultWorkspaceId,
      version: 1,
      definition: survey,
    });
    expect(await forms.findAnywhere('f-1')).toEqual(created);
    expect(await forms.findOwnership('f-1')).toEqual({
      id: 'f-1',
      accountId: ada.accountId,
      workspaceId: ada.defaultWorkspaceId,
      region: 'eu',
    });
    expect(await forms.findAnywhere('no-such-form')).toBeUndefined();
    expect(await forms.findOwnership('no-such-form')).toBeUndefined();
  });

  it('refuses a second form with the same id', async () => {
    await create(ada, 'f-1');
    await expect(create(bob, 'f-1')).rejects.toMatchObject({ code: 'P2002' });
    expect((await forms.findAnywhere('f-1'))?.accountId).toBe(ada.accountId);
  });

  it('updates under the row lock: concurrent writers each see the other, every write bumps the version', async () => {
    await create(ada, 'f-1', 'Start');
    const append = (suffix: string) =>
      forms.updateLocked('f-1', async (current) => {
        // Long enough for the other writer to be waiting on the lock.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { workspaceId: current.workspaceId, definition: definition(`${current.title} ${suffix}`) };
      });
    await Promise.all([append('a'), append('b'), append('c')]);
    const stored = await forms.findAnywhere('f-1');
    expect(stored?.version).toBe(4);
    expect(stored?.title.split(' ').sort()).toEqual(['Start', 'a', 'b', 'c']);
    expect(stored?.definition.title).toBe(stored?.title);
  });

  it('moves a form to another workspace; answers undefined for no such form; a throwing change changes nothing', async () => {
    await create(ada, 'f-1', 'Start');
    const other = await database.client.workspace.create({
      data: { id: 'ws-other', accountId: ada.accountId, name: 'Other' },
    });
    const moved = await forms.updateLocked('f-1', (current) =>
      Promise.resolve({ workspaceId: other.id, definition: current.definition }),
    );
    expect(moved).toMatchObject({ workspaceId: 'ws-other', version: 2 });

    const change = jest.fn();
    expect(await forms.updateLocked('no-such-form', change)).toBeUndefined();
    expect(change).not.toHaveBeenCalled();

    await expect(forms.updateLocked('f-1', () => Promise.reject(new Error('not yours')))).rejects.toThrow(
      'not yours',
    );
    expect(await forms.findAnywhere('f-1')).toMatchObject({ workspaceId: 'ws-other', version: 2 });
  });

  it("deletes only the owner's form, recording its region's purge in the same transaction", async () => {
    await create(ada, 'f-1');
    expect(await forms.delete(bob.accountId, 'f-1', 'us')).toBe(false);
    expect(await forms.findAnywhere('f-1')).toBeDefined();
    expect(await database.client.formDeletion.count()).toBe(0);

    expect(await forms.delete(ada.accountId, 'f-1', 'eu')).toBe(true);
    expect(await forms.findAnywhere('f-1')).toBeUndefined();
    expect(await database.client.formDeletion.findMany()).toEqual([
      expect.objectContaining({ formId: 'f-1', accountId: ada.accountId, region: 'eu' }),
    ]);
    // Deleted once: a second delete finds nothing and records nothing more.
    expect(await forms.delete(ada.accountId, 'f-1', 'eu')).toBe(false);
    expect(await database.client.formDeletion.count()).toBe(1);
  });

  describe('list', () => {
    const query = (extra: Partial<FormListQuery> = {}): FormListQuery => ({
      page: 1,
      pageSize: 10,
      sortBy: 'created_at',
      orderBy: 'asc',
      ...extra,
    });
    const ids = (listed: { forms: { id: string }[] }) => listed.forms.map((form) => form.id);

    // Ada's three forms created at t=1, 2, 2 (a tie, broken by id) and last
    // updated in the other order; Bob's form in a workspace he shares with Ada
    // and one he does not share.
    beforeEach(async () => {
      await create(ada, 'a-2', 'Beta survey');
      await create(ada, 'a-1', 'Alpha SURVEY');
      await create(ada, 'a-3', 'Gamma quiz');
      await database.client.workspace.create({
        data: { id: 'ws-shared', accountId: bob.accountId, name: 'Shared' },
      });
      await create(bob, 'b-shared', 'Shared survey', 'ws-shared');
      await create(bob, 'b-private', 'Private survey');
      const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
      for (const [id, created, updated] of [
        ['a-1', 1, 9],
        ['a-2', 2, 8],
        ['a-3', 2, 7],
        ['b-shared', 3, 6],
        ['b-private', 4, 5],
      ] as const) {
        await database.client.$executeRaw`
          UPDATE forms SET created_at = ${at(created)}, updated_at = ${at(updated)} WHERE id = ${id}`;
      }
    });

    it("lists the account's own forms only, in the order asked, ties broken by id", async () => {
      expect(await forms.list(ada.accountId, [], query())).toMatchObject({ total: 3 });
      expect(ids(await forms.list(ada.accountId, [], query()))).toEqual(['a-1', 'a-2', 'a-3']);
      expect(ids(await forms.list(ada.accountId, [], query({ orderBy: 'desc' })))).toEqual([
        'a-3',
        'a-2',
        'a-1',
      ]);
      expect(ids(await forms.list(ada.accountId, [], query({ sortBy: 'last_updated_at' })))).toEqual([
        'a-3',
        'a-2',
        'a-1',
      ]);
    });

    it('adds the forms of the shared workspaces given, and filters by workspace and by title', async () => {
      const shared = await forms.list(ada.accountId, ['ws-shared'], query());
      expect(shared.total).toBe(4);
      expect(ids(shared)).toEqual(['a-1', 'a-2', 'a-3', 'b-shared']);
      expect(shared.forms.at(-1)).toMatchObject({ accountId: bob.accountId, region: 'us' });

      expect(
        ids(await forms.list(ada.accountId, ['ws-shared'], query({ workspaceId: 'ws-shared' }))),
      ).toEqual(['b-shared']);
      // A workspace filter never widens what the account reaches.
      expect(await forms.list(ada.accountId, [], query({ workspaceId: bob.defaultWorkspaceId }))).toEqual({
        total: 0,
        forms: [],
      });
      // The search is a case-insensitive substring of the title.
      const searched = await forms.list(ada.accountId, ['ws-shared'], query({ search: 'survey' }));
      expect({ total: searched.total, ids: ids(searched) }).toEqual({
        total: 3,
        ids: ['a-1', 'a-2', 'b-shared'],
      });
    });

    it("lists each form with its definition's listed parts only, never the definition", async () => {
      await database.client.$executeRaw`
        UPDATE forms SET definition = jsonb_set(jsonb_set(jsonb_set(definition::jsonb,
          '{type}', '"score"'), '{settings,is_public}', 'false'), '{theme}', '{"href": "https://themes.example/t1"}')::json
         WHERE id = 'a-2'`;
      const listed = (await forms.list(ada.accountId, [], query())).forms;
      expect(listed.map((form) => form.listed)).toEqual([
        { type: expect.any(String) as unknown, isPublic: true, themeHref: null },
        { type: 'score', isPublic: false, themeHref: 'https://themes.example/t1' },
        { type: expect.any(String) as unknown, isPublic: true, themeHref: null },
      ]);
      for (const form of listed) expect(form).not.toHaveProperty('definition');
    });

    it('pages with the total of every page', async () => {
      const pages = [];
      for (let page = 1; page <= 3; page++) {
        pages.push(await forms.list(ada.accountId, ['ws-shared'], query({ page, pageSize: 2 })));
      }
      expect(pages.map((listed) => listed.total)).toEqual([4, 4, 4]);
      expect(pages.map(ids)).toEqual([['a-1', 'a-2'], ['a-3', 'b-shared'], []]);
    });
  });
});
