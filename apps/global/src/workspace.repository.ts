import { Injectable } from '@nestjs/common';
import { GlobalPrismaClient } from '@formline/db';
import { newPublicId } from '@formline/ids';

export interface StoredWorkspace {
  id: string;
  accountId: string;
  name: string;
  isDefault: boolean;
  formCount: number;
  owner: { alias: string; email: string };
  /** The members it is shared with, in the order they were added. */
  members: WorkspaceMemberRow[];
}

export interface WorkspaceMemberRow {
  email: string;
  role: WorkspaceMemberRole;
}
export type WorkspaceMemberRole = 'owner' | 'member';
// How a caller reaches a workspace: the account that owns it, or a member by role.
export type WorkspaceAccess = 'owning_account' | WorkspaceMemberRole;

// Members beyond this many are not listed with the workspace (a page of a reply stays bounded).
export const maxWorkspaceMembers = 500;
// An account sees at most this many workspaces shared with it (the oldest
// memberships first), so the lists that include them stay bounded queries.
export const maxSharedWorkspaces = 1000;

const workspaceColumns = {
  id: true,
  accountId: true,
  name: true,
  isDefault: true,
  _count: { select: { forms: true } },
  account: { select: { alias: true, email: true } },
  members: {
    select: { email: true, role: true },
    orderBy: { createdAt: 'asc' },
    take: maxWorkspaceMembers,
  },
} as const;

type WorkspaceRow = {
  id: string;
  accountId: string;
  name: string;
  isDefault: boolean;
  _count: { forms: number };
  account: { alias: string; email: string };
  members: Array<{ email: string; role: string }>;
};
const toStored = ({ _count, account, members, ...row }: WorkspaceRow): StoredWorkspace => ({
  ...row,
  formCount: _count.forms,
  owner: account,
  members: members.map((member) => ({
    email: member.email,
    role: member.role === 'owner' ? 'owner' : 'member',
  })),
});

// Workspaces in the global database: an account's own, and those shared
// with it by its email (workspace_members).
@Injectable()
export class WorkspaceRepository {
  constructor(private readonly db: GlobalPrismaClient) {}

  async findOwned(accountId: string, workspaceId: string): Promise<StoredWorkspace | undefined> {
    const row = await this.db.workspace.findFirst({
      where: { id: workspaceId, accountId },
      select: workspaceColumns,
    });
    return row ? toStored(row) : undefined;
  }

  // The workspace as the caller reaches it: owned, or shared with the caller's
  // account by its email (a member row), with the role it holds there.
  async findReachable(
    accountId: string,
    workspaceId: string,
  ): Promise<{ workspace: StoredWorkspace; access: WorkspaceAccess } | undefined> {
    const row = await this.db.workspace.findUnique({ where: { id: workspaceId }, select: workspaceColumns });
    if (!row) return undefined;
    const workspace = toStored(row);
    if (workspace.accountId === accountId) return { workspace, access: 'owning_account' };
    const role = await this.memberRole(accountId, workspaceId);
    return role ? { workspace, access: role } : undefined;
  }

  // Who owns the workspace and how the caller reaches it, without loading it
  // (for a form put in it); undefined when the caller does not reach it.
  async access(
    accountId: string,
    workspaceId: string,
  ): Promise<{ accountId: string; access: WorkspaceAccess } | undefined> {
    const row = await this.db.workspace.findUnique({
      where: { id: workspaceId },
      select: { accountId: true },
    });
    if (!row) return undefined;
    if (row.accountId === accountId) return { accountId, access: 'owning_account' };
    const role = await this.memberRole(accountId, workspaceId);
    return role ? { accountId: row.accountId, access: role } : undefined;
  }

  // The role the account holds in a workspace shared with it (by its email:
  // both sides are stored lower-cased, so plain equality, which the indexes
  // serve), undefined when it is no member. One query on two primary keys.
  async memberRole(accountId: string, workspaceId: string): Promise<WorkspaceMemberRole | undefined> {
    const rows = await this.db.$queryRaw<Array<{ role: string }>>`
      SELECT m.role FROM workspace_members m JOIN accounts a ON m.email = a.email
      WHERE a.id = ${accountId} AND m.workspace_id = ${workspaceId}`;
    const role = rows[0]?.role;
    if (role === undefined) return undefined;
    return role === 'owner' ? 'owner' : 'member';
  }

  // The workspaces other accounts share with this one, by the workspace_members(email) index.
  async sharedWithIds(accountId: string): Promise<string[]> {
    const rows = await this.db.$queryRaw<Array<{ workspace_id: string }>>`
      SELECT m.workspace_id FROM workspace_members m JOIN accounts a ON m.email = a.email
      WHERE a.id = ${accountId}
      ORDER BY m.created_at, m.workspace_id
      LIMIT ${maxSharedWorkspaces}`;
    return rows.map((row) => row.workspace_id);
  }

  async findDefault(accountId: string): Promise<StoredWorkspace> {
    const row = await this.db.workspace.findFirstOrThrow({
      where: { accountId, isDefault: true },
      select: workspaceColumns,
    });
    return toStored(row);
  }

  async create(accountId: string, name: string): Promise<StoredWorkspace> {
    const row = await this.db.workspace.create({
      data: { id: newPublicId(), accountId, name },
      select: workspaceColumns,
    });
    return toStored(row);
  }

  // One patch of a workspace in one transaction: its name, members added and
  // removed. Answers the accounts of the members removed (those that have
  // one), which no longer reach the workspace's forms.
  async change(
    accountId: string,
    workspaceId: string,
    change: {
      name?: string;
      // A role given sets it; without one, a new member is a `member` and an existing one keeps theirs.
      addMembers: Array<{ email: string; role?: WorkspaceMemberRole }>;
      removeMembers: string[];
    },
  ): Promise<{ removedAccountIds: string[] }> {
    return this.db.$transaction(async (tx) => {
      // The workspace's row, locked: patches of one workspace take turns, so
      // two adding the same member never both insert it (nor deadlock adding
      // two in opposite orders). FOR NO KEY UPDATE lets forms be created in
      // it meanwhile.
      const owned = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM workspaces WHERE id = ${workspaceId} AND account_id = ${accountId} FOR NO KEY UPDATE`;
      if (owned.length === 0) return { removedAccountIds: [] };
      if (change.name !== undefined)
        await tx.workspace.update({ where: { id: workspaceId }, data: { name: change.name } });
      if (change.removeMembers.length > 0)
        await tx.workspaceMember.deleteMany({ where: { workspaceId, email: { in: change.removeMembers } } });
      for (const { email, role } of change.addMembers)
        await tx.workspaceMember.upsert({
          where: { workspaceId_email: { workspaceId, email } },
          create: { workspaceId, email, role: role ?? 'member' },
          update: role ? { role } : {},
        });
      if (change.removeMembers.length === 0) return { removedAccountIds: [] };
      const removed = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM accounts WHERE email = ANY(${change.removeMembers})`;
      return { removedAccountIds: removed.map((row) => row.id) };
    });
  }

  // Deletes only an empty, non-default workspace. Returns whether it was
  // deleted. Its row is locked first: a form being created in it or moved
  // into it holds a key lock on that row until it commits, so the lock waits
  // for it and the emptiness check that follows sees the form. (One DELETE
  // with the check inside judged emptiness before it waited, and the form,
  // committed meanwhile, went with the workspace: deleted by cascade, with no
  // record to purge its responses.) A form created after the lock waits for
  // this transaction, and finds its workspace gone.
  async deleteIfEmpty(accountId: string, workspaceId: string): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM workspaces
         WHERE id = ${workspaceId} AND account_id = ${accountId} AND NOT is_default FOR UPDATE`;
      if (locked.length === 0) return false;
      const { count } = await tx.workspace.deleteMany({
        where: { id: workspaceId, forms: { none: {} } },
      });
      return count === 1;
    });
  }

  // The account's own workspaces (its default first), then those shared with
  // it, oldest first: one listing paged across both, so the caller's own
  // default workspace always leads whatever is shared with it.
  async list(
    accountId: string,
    query: { page: number; pageSize: number; search?: string },
  ): Promise<{ total: number; workspaces: StoredWorkspace[] }> {
    const shared = await this.sharedWithIds(accountId);
    const named = query.search ? { name: { contains: query.search, mode: 'insensitive' as const } } : {};
    const ownWhere = { accountId, ...named };
    const sharedWhere = { id: { in: shared }, accountId: { not: accountId }, ...named };
    const order = [{ isDefault: 'desc' as const }, { createdAt: 'asc' as const }, { id: 'asc' as const }];
    const skip = (query.page - 1) * query.pageSize;
    const [ownTotal, sharedTotal] = await Promise.all([
      this.db.workspace.count({ where: ownWhere }),
      shared.length === 0 ? 0 : this.db.workspace.count({ where: sharedWhere }),
    ]);
    const ownTake = Math.max(0, Math.min(query.pageSize, ownTotal - skip));
    const sharedTake = query.pageSize - ownTake;
    const [own, others] = await Promise.all([
      ownTake > 0
        ? this.db.workspace.findMany({
            where: ownWhere,
            select: workspaceColumns,
            orderBy: order,
            skip,
            take: ownTake,
          })
        : [],
      sharedTake > 0 && sharedTotal > 0
        ? this.db.workspace.findMany({
            where: sharedWhere,
            select: workspaceColumns,
            orderBy: order.slice(1),
            skip: Math.max(0, skip - ownTotal),
            take: sharedTake,
          })
        : [],
    ]);
    return { total: ownTotal + sharedTotal, workspaces: [...own, ...others].map(toStored) };
  }
}
