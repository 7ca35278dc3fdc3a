import { Injectable } from '@nestjs/common';
import { GlobalPrismaClient, type GlobalDb } from '@formline/db';
import type { ThemeBody } from '@formline/contracts';
import { newPublicId } from '@formline/ids';

export interface StoredTheme {
  id: string;
  name: string;
  properties: Omit<ThemeBody, 'name'>;
  createdAt: Date;
  updatedAt: Date;
}

const themeColumns = { id: true, name: true, properties: true, createdAt: true, updatedAt: true } as const;

type ThemeRow = { id: string; name: string; properties: unknown; createdAt: Date; updatedAt: Date };
const toStored = (row: ThemeRow): StoredTheme => ({
  ...row,
  properties: row.properties as StoredTheme['properties'],
});

const split = ({ name, ...properties }: ThemeBody) => ({
  name,
  properties: properties as GlobalDb.Prisma.InputJsonValue,
});

// Themes in the global database; every query is scoped by account, so another
// account's theme is simply not found.
@Injectable()
export class ThemeRepository {
  constructor(private readonly db: GlobalPrismaClient) {}

  async findOwned(accountId: string, themeId: string): Promise<StoredTheme | undefined> {
    const row = await this.db.theme.findFirst({ where: { id: themeId, accountId }, select: themeColumns });
    return row ? toStored(row) : undefined;
  }

  async create(accountId: string, theme: ThemeBody): Promise<StoredTheme> {
    const row = await this.db.theme.create({
      data: { id: newPublicId(), accountId, ...split(theme) },
      select: themeColumns,
    });
    return toStored(row);
  }

  // Replaces the theme if the account owns it; undefined when it does not.
  async replace(accountId: string, themeId: string, theme: ThemeBody): Promise<StoredTheme | undefined> {
    const [row] = await this.db.theme.updateManyAndReturn({
      where: { id: themeId, accountId },
      data: split(theme),
      select: themeColumns,
    });
    return row ? toStored(row) : undefined;
  }

  // Replaces the theme only if it still holds what `seen` read: 'changed'
  // when another write came between (the caller merges again), undefined
  // when the account has no such theme.
  async replaceIfUnchanged(
    accountId: string,
    themeId: string,
    theme: ThemeBody,
    seen: Pick<StoredTheme, 'name' | 'properties'>,
  ): Promise<StoredTheme | 'changed' | undefined> {
    const [row] = await this.db.theme.updateManyAndReturn({
      where: {
        id: themeId,
        accountId,
        name: seen.name,
        properties: { equals: seen.properties },
      },
      data: split(theme),
      select: themeColumns,
    });
    if (row) return toStored(row);
    return (await this.findOwned(accountId, themeId)) ? 'changed' : undefined;
  }

  async delete(accountId: string, themeId: string): Promise<boolean> {
    const { count } = await this.db.theme.deleteMany({ where: { id: themeId, accountId } });
    return count === 1;
  }

  async list(
    accountId: string,
    page: { skip: number; take: number },
  ): Promise<{ total: number; themes: StoredTheme[] }> {
    const [total, rows] = await this.db.$transaction([
      this.db.theme.count({ where: { accountId } }),
      this.db.theme.findMany({
        where: { accountId },
        select: themeColumns,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        skip: page.skip,
        take: page.take,
      }),
    ]);
    return { total, themes: rows.map(toStored) };
  }
}
