import { Injectable } from '@nestjs/common';
import { GlobalPrismaClient } from '@formline/db';
import { newPublicId } from '@formline/ids';

export interface StoredWorkspace {
  id: string;
  accountId: string;
  name: string;
  isDefault: boolean;
  formCount: number;
}

const workspaceColumns = {
  id: true,
  accountId: true,
  name: true,
  isDefault: true,
  _count: { select: { forms: true } },
} as const;

type WorkspaceRow = {
  id: string;
  accountId: string;
  name: string;
  isDefault: boolean;
  _count: { forms: number };
};
const toStored = ({ _count, ...row }: WorkspaceRow): StoredWorkspace => ({ ...row, formCount: _count.forms });

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

  async rename(accountId: string, workspaceId: string, name: string): Promise<void> {
    await this.db.workspace.updateMany({ where: { id: workspaceId, accountId }, data: { name } });
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
