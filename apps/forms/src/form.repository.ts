import { Injectable } from '@nestjs/common';
import type { Region } from '@formline/contracts';
import { GlobalPrismaClient, type GlobalDb } from '@formline/db';
import type { FormDefinition } from '@formline/form-definition';

export interface StoredForm {
  id: string;
  title: string;
  workspaceId: string;
  definition: FormDefinition;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface FormListQuery {
  page: number;
  pageSize: number;
  search?: string;
  workspaceId?: string;
  sortBy: 'created_at' | 'last_updated_at';
  orderBy: 'asc' | 'desc';
}

const formColumns = {
  id: true,
  title: true,
  workspaceId: true,
  definition: true,
  version: true,
  createdAt: true,
  updatedAt: true,
} as const;

// Forms in the global database. Every query is scoped by account: another
// account's form is simply not found.
@Injectable()
export class FormRepository {
  constructor(private readonly db: GlobalPrismaClient) {}

  async findOwned(accountId: string, formId: string): Promise<StoredForm | undefined> {
    const form = await this.db.form.findFirst({ where: { id: formId, accountId }, select: formColumns });
    return form ? (form as unknown as StoredForm) : undefined;
  }

  async accountRegion(accountId: string): Promise<Region> {
    const account = await this.db.account.findUniqueOrThrow({
      where: { id: accountId },
      select: { region: true },
    });
    return account.region;
  }

  async create(form: {
    id: string;
    accountId: string;
    workspaceId: string;
    definition: FormDefinition;
  }): Promise<StoredForm> {
    const created = await this.db.form.create({
      data: { ...form, title: form.definition.title, definition: asJson(form.definition) },
      select: formColumns,
    });
    return created as unknown as StoredForm;
  }

  // Optimistic concurrency: writes only if nobody changed the form since
  // `version` was read. Returns false when somebody did.
  async updateIfUnchanged(
    accountId: string,
    formId: string,
    version: number,
    change: { workspaceId: string; definition: FormDefinition },
  ): Promise<boolean> {
    const { count } = await this.db.form.updateMany({
      where: { id: formId, accountId, version },
      data: {
        workspaceId: change.workspaceId,
        title: change.definition.title,
        definition: asJson(change.definition),
        version: { increment: 1 },
      },
    });
    return count === 1;
  }

  async delete(accountId: string, formId: string): Promise<boolean> {
    const { count } = await this.db.form.deleteMany({ where: { id: formId, accountId } });
    return count === 1;
  }

  async list(accountId: string, query: FormListQuery): Promise<{ total: number; forms: StoredForm[] }> {
    const where = {
      accountId,
      ...(query.workspaceId ? { workspaceId: query.workspaceId } : {}),
      ...(query.search ? { title: { contains: query.search, mode: 'insensitive' as const } } : {}),
    };
    const orderColumn = query.sortBy === 'created_at' ? 'createdAt' : 'updatedAt';
    const [total, forms] = await this.db.$transaction([
      this.db.form.count({ where }),
      this.db.form.findMany({
        where,
        select: formColumns,
        orderBy: [{ [orderColumn]: query.orderBy }, { id: query.orderBy }],
        skip: (query.page - 1) * query.pageSize,
        take: query.pageSize,
      }),
    ]);
    return { total, forms: forms as unknown as StoredForm[] };
  }
}

// The definition is plain JSON by construction (validated and normalised).
function asJson(definition: FormDefinition): GlobalDb.Prisma.InputJsonValue {
  return definition as unknown as GlobalDb.Prisma.InputJsonValue;
}
