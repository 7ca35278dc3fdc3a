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

// Workspaces in the global database, scoped by account like forms.
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
    const caller = await this.db.account.findUnique({ where: { id: accountId }, select: { email: true } });
    const email = caller?.email.toLowerCase();
    const member = email
      ? await this.db.workspaceMember.findUnique({
          where: { workspaceId_email: { workspaceId, email } },
          select: { role: true },
        })
      : null;
    if (!member) return undefined;
    return { workspace, access: member.role === 'owner' ? 'owner' : 'member' };
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

  // One patch of a workspace in one transaction: its name, members added and removed.
  async change(
    accountId: string,
    workspaceId: string,
    change: {
      name?: string;
      // A role given sets it; without one, a new member is a `member` and an existing one keeps theirs.
      addMembers: Array<{ email: string; role?: WorkspaceMemberRole }>;
      removeMembers: string[];
    },
  ): Promise<void> {
    await this.db.$transaction(async (tx) => {
      const owned = await tx.workspace.count({ where: { id: workspaceId, accountId } });
      if (owned === 0) return;
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
    });
  }

  // Deletes only an empty, non-default workspace, in one statement, so a form
  // created meanwhile is never deleted with it. Returns whether it was deleted.
  async deleteIfEmpty(accountId: string, workspaceId: string): Promise<boolean> {
    const { count } = await this.db.workspace.deleteMany({
      where: { id: workspaceId, accountId, isDefault: false, forms: { none: {} } },
    });
    return count === 1;
  }

  async list(
    accountId: string,
    query: { page: number; pageSize: number; search?: string },
  ): Promise<{ total: number; workspaces: StoredWorkspace[] }> {
    const where = {
      accountId,
      ...(query.search ? { name: { contains: query.search, mode: 'insensitive' as const } } : {}),
    };
    const [total, rows] = await this.db.$transaction([
      this.db.workspace.count({ where }),
      this.db.workspace.findMany({
        where,
        select: workspaceColumns,
        orderBy: [{ isDefault: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }],
        skip: (query.page - 1) * query.pageSize,
        take: query.pageSize,
      }),
    ]);
    return { total, workspaces: rows.map(toStored) };
  }
}
