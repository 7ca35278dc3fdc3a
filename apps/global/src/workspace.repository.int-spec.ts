import { createAccount } from '@formline/admin';
import type { GlobalPrismaClient } from '@formline/db';
import {
  createTestForm,
  emptyTables,
  scratchGlobalDatabase,
  type ScratchDatabase,
  untilLockWaiters,
} from '@formline/testing';
import pg from 'pg';
import { WorkspaceRepository } from './workspace.repository';

// WorkspaceRepository against PostgreSQL: an account's own workspaces and
// those shared with it by its email; changes and deletes are the owner's
// alone; the listing pages the account's own (default first) and then the
// shared ones as one list.
describe('WorkspaceRepository against PostgreSQL', () => {
  let database: ScratchDatabase<GlobalPrismaClient>;
  let workspaces: WorkspaceRepository;
  let ada: { accountId: string; defaultWorkspaceId: string };
  let bob: { accountId: string; defaultWorkspaceId: string };
  let cat: { accountId: string; defaultWorkspaceId: string };

  beforeAll(async () => {
    database = await scratchGlobalDatabase();
    workspaces = new WorkspaceRepository(database.client);
  });
  afterAll(() => database?.dispose());
  beforeEach(async () => {
    await emptyTables(database.client);
    const account = (alias: string) =>
      createAccount(database.client, { alias, email: `${alias}@example.com`, region: 'eu' });
    [ada, bob, cat] = [await account('ada'), await account('bob'), await account('cat')];
  });

  const createdAt = (table: 'workspaces' | 'workspace_members', id: string, seconds: number) => {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
    return table === 'workspaces'
      ? database.client.$executeRaw`UPDATE workspaces SET created_at = ${at} WHERE id = ${id}`
      : database.client.$executeRaw`UPDATE workspace_members SET created_at = ${at} WHERE email = ${id}`;
  };

  it('creates a workspace and finds it with its owner, form count and members in the order added', async () => {
    const created = await workspaces.create(ada.accountId, 'Research');
    expect(created).toEqual({
      id: expect.any(String),
      accountId: ada.accountId,
      name: 'Research',
      isDefault: false,
      formCount: 0,
      owner: { alias: 'ada', email: 'ada@example.com' },
      members: [],
    });
    await createTestForm(database.client, { accountId: ada.accountId, workspaceId: created.id, title: 'A' });
    // Two changes: members added in one change share its instant.
    for (const member of [
      { email: 'bob@example.com', role: 'owner' as const },
      { email: 'nobody@example.com' },
    ])
      await workspaces.change(ada.accountId, created.id, { addMembers: [member], removeMembers: [] });
    expect(await workspaces.findOwned(ada.accountId, created.id)).toMatchObject({
      formCount: 1,
      members: [
        { email: 'bob@example.com', role: 'owner' },
        { email: 'nobody@example.com', role: 'member' },
      ],
    });
    expect(await workspaces.findOwned(bob.accountId, created.id)).toBeUndefined();
    expect(await workspaces.findDefault(ada.accountId)).toMatchObject({
      id: ada.defaultWorkspaceId,
      isDefault: true,
    });
  });

  it('tells how a caller reaches a workspace: owning it, as a member by role, or not at all', async () => {
    const shared = await workspaces.create(ada.accountId, 'Shared');
    await workspaces.change(ada.accountId, shared.id, {
      addMembers: [{ email: 'bob@example.com', role: 'owner' }, { email: 'cat@example.com' }],
      removeMembers: [],
    });
    const outsider = (
      await createAccount(database.client, { alias: 'dan', email: 'dan@example.com', region: 'us' })
    ).accountId;

    expect(await workspaces.findReachable(ada.accountId, shared.id)).toMatchObject({
      access: 'owning_account',
      workspace: { id: shared.id },
    });
    expect(await workspaces.findReachable(bob.accountId, shared.id)).toMatchObject({ access: 'owner' });
    expect(await workspaces.findReachable(cat.accountId, shared.id)).toMatchObject({ access: 'member' });
    expect(await workspaces.findReachable(outsider, shared.id)).toBeUndefined();
    expect(await workspaces.findReachable(ada.accountId, 'no-such-workspace')).toBeUndefined();

    expect(await workspaces.access(ada.accountId, shared.id)).toEqual({
      accountId: ada.accountId,
      access: 'owning_account',
    });
    expect(await workspaces.access(cat.accountId, shared.id)).toEqual({
      accountId: ada.accountId,
      access: 'member',
    });
    expect(await workspaces.access(outsider, shared.id)).toBeUndefined();
    expect(await workspaces.access(ada.accountId, 'no-such-workspace')).toBeUndefined();

    expect(await workspaces.memberRole(bob.accountId, shared.id)).toBe('owner');
    expect(await workspaces.memberRole(cat.accountId, shared.id)).toBe('member');
    // The owning account is no member row.
    expect(await workspaces.memberRole(ada.accountId, shared.id)).toBeUndefined();
  });

  it('answers the workspaces shared with an account, oldest membership first', async () => {
    const first = await workspaces.create(ada.accountId, 'First');
    const second = await workspaces.create(bob.accountId, 'Second');
    await workspaces.change(bob.accountId, second.id, {
      addMembers: [{ email: 'cat@example.com' }],
      removeMembers: [],
    });
    await createdAt('workspace_members', 'cat@example.com', 1);
    await workspaces.change(ada.accountId, first.id, {
      addMembers: [{ email: 'cat@example.com' }],
      removeMembers: [],
    });
    await database.client.$executeRaw`
      UPDATE workspace_members SET created_at = '2026-01-01T00:00:02Z' WHERE workspace_id = ${first.id}`;
    expect(await workspaces.sharedWithIds(cat.accountId)).toEqual([second.id, first.id]);
    expect(await workspaces.sharedWithIds(ada.accountId)).toEqual([]);
  });

  describe('change', () => {
    it('renames, adds and removes members in one go, answering the removed members that have accounts', async () => {
      const shared = await workspaces.create(ada.accountId, 'Shared');
      await workspaces.change(ada.accountId, shared.id, {
        addMembers: [
          { email: 'bob@example.com', role: 'owner' },
          { email: 'cat@example.com' },
          { email: 'x@example.com' },
        ],
        removeMembers: [],
      });

      const changed = await workspaces.change(ada.accountId, shared.id, {
        name: 'Renamed',
        // Bob keeps his role when added again without one; Cat's is set.
        addMembers: [{ email: 'bob@example.com' }, { email: 'cat@example.com', role: 'owner' }],
        removeMembers: ['x@example.com', 'cat@example.com'],
      });
      // Removal comes first, so Cat is removed and added back, as an owner.
      expect(changed.removedAccountIds).toEqual([cat.accountId]);
      expect(await workspaces.findOwned(ada.accountId, shared.id)).toMatchObject({
        name: 'Renamed',
        members: [
          { email: 'bob@example.com', role: 'owner' },
          { email: 'cat@example.com', role: 'owner' },
        ],
      });
    });

    it("changes nothing of another account's workspace", async () => {
      const shared = await workspaces.create(ada.accountId, 'Shared');
      await workspaces.change(ada.accountId, shared.id, {
        addMembers: [{ email: 'bob@example.com', role: 'owner' }],
        removeMembers: [],
      });
      // Even a member with the owner role does not change the workspace here.
      expect(
        await workspaces.change(bob.accountId, shared.id, {
          name: 'Taken',
          addMembers: [{ email: 'cat@example.com' }],
          removeMembers: ['bob@example.com'],
        }),
      ).toEqual({ removedAccountIds: [] });
      expect(await workspaces.findOwned(ada.accountId, shared.id)).toMatchObject({
        name: 'Shared',
        members: [{ email: 'bob@example.com', role: 'owner' }],
      });
    });
  });

  it('deletes only an empty, non-default workspace of the account', async () => {
    const empty = await workspaces.create(ada.accountId, 'Empty');
    const withForm = await workspaces.create(ada.accountId, 'With a form');
    await createTestForm(database.client, { accountId: ada.accountId, workspaceId: withForm.id, title: 'A' });

    expect(await workspaces.deleteIfEmpty(ada.accountId, ada.defaultWorkspaceId)).toBe(false);
    expect(await workspaces.deleteIfEmpty(ada.accountId, withForm.id)).toBe(false);
    expect(await workspaces.deleteIfEmpty(bob.accountId, empty.id)).toBe(false);
    expect(await workspaces.deleteIfEmpty(ada.accountId, empty.id)).toBe(true);
    expect(await workspaces.findOwned(ada.accountId, empty.id)).toBeUndefined();
    expect(await workspaces.deleteIfEmpty(ada.accountId, empty.id)).toBe(false);
    expect(await workspaces.findOwned(ada.accountId, withForm.id)).toBeDefined();
  });

  it('keeps a workspace that a form is moved into while it is being deleted', async () => {
    const target = await workspaces.create(ada.accountId, 'Target');
    const formId = await createTestForm(database.client, {
      accountId: ada.accountId,
      workspaceId: ada.defaultWorkspaceId,
      title: 'Moving',
    });
    // The move, uncommitted, on a connection of its own.
    const mover = new pg.Client({ connectionString: database.url });
    await mover.connect();
    try {
      await mover.query('BEGIN');
      await mover.query('UPDATE forms SET workspace_id = $1 WHERE id = $2', [target.id, formId]);
      const deleting = workspaces.deleteIfEmpty(ada.accountId, target.id);
      // Once the deletion waits on the lock the move holds.
      await untilLockWaiters(async (sql) => (await mover.query<{ waiting: number }>(sql)).rows);
      await mover.query('COMMIT');
      expect(await deleting).toBe(false);
    } finally {
      await mover.end();
    }
    expect(await database.client.form.findUnique({ where: { id: formId } })).toMatchObject({
      workspaceId: target.id,
    });
  });

  describe('list', () => {
    // Cat owns her default and two more (made at t=1, t=2, then t=2 again
    // after the default: the id breaks the tie); Ada and Bob share one each
    // with her (Bob's membership older); Cat is also a member of her own.
    let expected: string[];
    beforeEach(async () => {
      const own = [
        await workspaces.create(cat.accountId, 'Cat one'),
        await workspaces.create(cat.accountId, 'Cat two'),
      ];
      const own3 = await workspaces.create(cat.accountId, 'Cat three');
      await createdAt('workspaces', cat.defaultWorkspaceId, 5);
      await createdAt('workspaces', own[0].id, 1);
      await createdAt('workspaces', own[1].id, 2);
      await createdAt('workspaces', own3.id, 2);
      const adas = await workspaces.create(ada.accountId, 'Ada shared');
      const bobs = await workspaces.create(bob.accountId, 'Bob shared');
      await workspaces.create(bob.accountId, 'Bob private');
      await createdAt('workspaces', adas.id, 3);
      await createdAt('workspaces', bobs.id, 4);
      for (const id of [adas.id, bobs.id, own[0].id]) {
        const owner = id === adas.id ? ada : id === bobs.id ? bob : cat;
        await workspaces.change(owner.accountId, id, {
          addMembers: [{ email: 'cat@example.com' }],
          removeMembers: [],
        });
      }
      await database.client.$executeRaw`
        UPDATE workspace_members SET created_at = '2026-01-01T00:00:09Z' WHERE workspace_id = ${adas.id}`;
      const [tiedFirst, tiedSecond] = [own[1].id, own3.id].sort();
      expected = [cat.defaultWorkspaceId, own[0].id, tiedFirst, tiedSecond, adas.id, bobs.id];
    });
    const ids = (listed: { workspaces: { id: string }[] }) =>
      listed.workspaces.map((workspace) => workspace.id);

    it('lists the default first, then own, then shared (each oldest first), in one total', async () => {
      const listed = await workspaces.list(cat.accountId, { page: 1, pageSize: 10 });
      expect(listed.total).toBe(6);
      expect(ids(listed)).toEqual(expected);
      expect(listed.workspaces.at(-1)).toMatchObject({ name: 'Bob shared', owner: { alias: 'bob' } });
    });

    it('pages across the own and the shared workspaces without skipping or repeating one', async () => {
      for (const pageSize of [1, 2, 3, 4, 5]) {
        const seen: string[] = [];
        for (let page = 1; page <= Math.ceil(6 / pageSize) + 1; page++) {
          const listed = await workspaces.list(cat.accountId, { page, pageSize });
          expect(listed.total).toBe(6);
          seen.push(...ids(listed));
        }
        expect(seen).toEqual(expected);
      }
    });

    it('searches names case-insensitively in both', async () => {
      const listed = await workspaces.list(cat.accountId, { page: 1, pageSize: 10, search: 'SHARED' });
      expect(listed.total).toBe(2);
      expect(listed.workspaces.map((workspace) => workspace.name)).toEqual(['Ada shared', 'Bob shared']);
      expect(await workspaces.list(ada.accountId, { page: 1, pageSize: 10, search: 'cat' })).toEqual({
        total: 0,
        workspaces: [],
      });
    });
  });
});
