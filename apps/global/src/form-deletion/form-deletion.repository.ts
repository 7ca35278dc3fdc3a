import { Injectable } from '@nestjs/common';
import type { Region } from '@formline/contracts';
import { GlobalPrismaClient } from '@formline/db';

export interface PendingFormDeletion {
  id: string;
  formId: string;
  accountId: string;
  deletedAt: Date;
}

// The form_deletions table: forms deleted whose region has not yet been told.
// Rows are written with the form's delete (FormRepository.delete); the relay
// of the form's region claims them, publishes them and deletes them.
@Injectable()
export class FormDeletionRepository {
  constructor(private readonly db: GlobalPrismaClient) {}

  // Runs `publish` on up to `limit` of the region's rows, oldest first, locked
  // (replicas of the region's global service never take the same ones); the
  // rows it answers were published and are deleted in the same transaction.
  async withClaimedBatch(
    region: Region,
    limit: number,
    timeoutMs: number,
    publish: (rows: PendingFormDeletion[]) => Promise<string[]>,
  ): Promise<{ claimed: number; published: number }> {
    return this.db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<PendingFormDeletion[]>`
          SELECT id, form_id AS "formId", account_id AS "accountId", deleted_at AS "deletedAt"
          FROM form_deletions WHERE region = ${region}::"Region"
          ORDER BY deleted_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return { claimed: 0, published: 0 };
        const published = await publish(rows);
        if (published.length > 0) await tx.formDeletion.deleteMany({ where: { id: { in: published } } });
        return { claimed: rows.length, published: published.length };
      },
      { timeout: timeoutMs, maxWait: timeoutMs },
    );
  }
}
