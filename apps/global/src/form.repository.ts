import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import type { Region } from '@formline/contracts';
import { GlobalPrismaClient, type GlobalDb, halfThePoolSlots, type Slots } from '@formline/db';
import type { FormDefinition } from '@formline/form-definition';

export interface StoredForm {
  id: string;
  /** The owning account: its data, its region, whoever else the form is shared with. */
  accountId: string;
  /** The owning account's region, where the form's responses live. */
  region: Region;
  title: string;
  workspaceId: string;
  definition: FormDefinition;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A form as GET /forms lists it: the few parts of its definition a listing
 * shows, never the whole (up to 384 KiB each, 200 to a page).
 */
export interface ListedForm extends Omit<StoredForm, 'definition'> {
  listed: { type: string | null; isPublic: boolean; themeHref: string | null };
}

/** Whose a form is and where it sits: what access to it is decided on. */
export type FormOwnership = Pick<StoredForm, 'id' | 'accountId' | 'workspaceId' | 'region'>;

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
  accountId: true,
  account: { select: { region: true } },
  title: true,
  workspaceId: true,
  definition: true,
  version: true,
  createdAt: true,
  updatedAt: true,
} as const;

// Forms in the global database. A caller reaches a form through FormAccess
// (its own, or one in a workspace shared with it): the lookups here take any
// account's form, for FormAccess to decide on; deletes are scoped by the
// owning account it resolved to.
@Injectable()
export class FormRepository {
  // A form's write holds a connection for its transaction while `change`
  // reads on others (the caller's role, the images, the destination). With as
  // many writes under way as the pool has connections, each would wait for a
  // second one that none gives back, until the pool's timeout answered them
  // all 503. At most half the pool's connections are held by writes (and
  // deletions, which wait on the writes' row locks) at once, so the writes'
  // reads always find one; more wait here, holding none, as long as a query
  // would wait for a connection (then 503, and the write never happens).
  private readonly writes: Slots;

  constructor(
    private readonly db: GlobalPrismaClient,
    @Inject(GLOBAL_CONFIG)
    config: Pick<GlobalConfig, 'DATABASE_POOL_SIZE' | 'DATABASE_POOL_TIMEOUT_MS'>,
  ) {
    this.writes = halfThePoolSlots(config, 'The forms database');
  }

  // Any account's form, with its owner and the owner's region.
  async findAnywhere(formId: string): Promise<StoredForm | undefined> {
    const form = await this.db.form.findUnique({ where: { id: formId }, select: formColumns });
    return form ? toStored(form) : undefined;
  }

  // The same without the definition, for deciding access alone (the
  // responses service asks on every listing; a definition may be large).
  async findOwnership(formId: string): Promise<FormOwnership | undefined> {
    const form = await this.db.form.findUnique({
      where: { id: formId },
      select: { id: true, accountId: true, workspaceId: true, account: { select: { region: true } } },
    });
    if (!form) return undefined;
    return {
      id: form.id,
      accountId: form.accountId,
      workspaceId: form.workspaceId,
      region: form.account.region,
    };
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
    return toStored(created);
  }

  // Read-modify-write of any account's form under its row lock: concurrent
  // writers of one form queue up instead of overwriting each other. `change`
  // sees the form as it is now, decides on the locked row whether the caller
  // may write it, and returns the new state (or throws, which changes
  // nothing). Undefined when there is no such form.
  async updateLocked(
    formId: string,
    change: (current: StoredForm) => Promise<{ workspaceId: string; definition: FormDefinition }>,
  ): Promise<StoredForm | undefined> {
    return this.writes.run(() =>
      this.db.$transaction(async (tx) => {
        const locked = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM forms WHERE id = ${formId} FOR UPDATE`;
        if (locked.length === 0) return undefined;
        const current = toStored(
          await tx.form.findUniqueOrThrow({ where: { id: formId }, select: formColumns }),
        );
        const next = await change(current);
        const updated = await tx.form.update({
          where: { id: formId },
          data: {
            workspaceId: next.workspaceId,
            title: next.definition.title,
            definition: asJson(next.definition),
            version: { increment: 1 },
          },
          select: formColumns,
        });
        return toStored(updated);
      }),
    );
  }

  // The form goes, and in the same transaction the record that its region
  // must purge its data (form_deletions, relayed by FormDeletionRelayJob): no
  // crash can leave a form deleted whose data is never purged.
  async delete(accountId: string, formId: string, region: Region): Promise<boolean> {
    return this.writes.run(() =>
      this.db.$transaction(async (tx) => {
        const { count } = await tx.form.deleteMany({ where: { id: formId, accountId } });
        if (count !== 1) return false;
        await tx.formDeletion.create({ data: { id: randomUUID(), formId, accountId, region } });
        return true;
      }),
    );
  }

  // The account's own forms and those of the workspaces shared with it
  // (`sharedWorkspaceIds`, bounded by the caller). Without shared workspaces
  // the query is the account's alone, served by its (account_id, created_at) index.
  async list(
    accountId: string,
    sharedWorkspaceIds: readonly string[],
    query: FormListQuery,
  ): Promise<{ total: number; forms: ListedForm[] }> {
    const reachable =
      sharedWorkspaceIds.length === 0
        ? { accountId }
        : { OR: [{ accountId }, { workspaceId: { in: [...sharedWorkspaceIds] } }] };
    const where = {
      ...reachable,
      ...(query.workspaceId ? { workspaceId: query.workspaceId } : {}),
      ...(query.search ? { title: { contains: query.search, mode: 'insensitive' as const } } : {}),
    };
    const orderColumn = query.sortBy === 'created_at' ? 'createdAt' : 'updatedAt';
    const [total, forms] = await this.db.$transaction([
      this.db.form.count({ where }),
      this.db.form.findMany({
        where,
        select: { ...formColumns, definition: false },
        orderBy: [{ [orderColumn]: query.orderBy }, { id: query.orderBy }],
        skip: (query.page - 1) * query.pageSize,
        take: query.pageSize,
      }),
    ]);
    const listed = await this.listedParts(forms.map((form) => form.id));
    return {
      total,
      forms: forms.flatMap(({ account, ...form }) => {
        const parts = listed.get(form.id);
        // A form deleted between the two reads is left out.
        return parts ? [{ ...form, region: account.region, listed: parts }] : [];
      }),
    };
  }

  // What a listing shows of each form's definition, taken out of it by
  // PostgreSQL: a page of 200 forms near their stored bound would otherwise
  // bring 75 MB of JSON into the process to show a title's worth of each.
  private async listedParts(ids: readonly string[]): Promise<Map<string, ListedForm['listed']>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.$queryRaw<
      Array<{ id: string; type: unknown; isPublic: unknown; themeHref: unknown }>
    >`
      SELECT f.id, d -> 'type' AS type, d -> 'settings' -> 'is_public' AS "isPublic",
             d -> 'theme' -> 'href' AS "themeHref"
        FROM forms f CROSS JOIN LATERAL (SELECT f.definition::jsonb AS d) AS definition
       WHERE f.id = ANY(${[...ids]}::text[])`;
    return new Map(
      rows.map((row) => [
        row.id,
        {
          type: typeof row.type === 'string' ? row.type : null,
          isPublic: row.isPublic !== false,
          themeHref: typeof row.themeHref === 'string' ? row.themeHref : null,
        },
      ]),
    );
  }
}

// The definition is plain JSON by construction (validated and normalised).
function asJson(definition: FormDefinition): GlobalDb.Prisma.InputJsonValue {
  return definition as unknown as GlobalDb.Prisma.InputJsonValue;
}

// Rows hold definitions this service wrote: normalised by construction.
function toStored({
  account,
  ...row
}: Omit<StoredForm, 'definition' | 'region'> & {
  definition: unknown;
  account: { region: Region };
}): StoredForm {
  return { ...row, region: account.region, definition: row.definition as FormDefinition };
}
