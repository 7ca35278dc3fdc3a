import { Injectable } from '@nestjs/common';
import { FormPurgeTable, ResponsesPrismaClient } from '@formline/db';
import { formOtherTables } from './form-tables';

export interface PurgedUpload {
  fileName: string;
  formId: string;
  fieldId: string;
}

const tableName = /^[a-z_][a-z0-9_]{0,62}$/;

// The form_purges table (one row per deleted form whose data is still being
// purged here: libs/db's FormPurgeTable) and the batches that purge it: each deletes at most
// `batchSize` of the form's rows, taken with FOR UPDATE SKIP LOCKED so a
// statement of the hot path never waits on it and it never waits on one.
@Injectable()
export class FormPurgeRepository {
  readonly table: FormPurgeTable;

  constructor(private readonly db: ResponsesPrismaClient) {
    this.table = new FormPurgeTable(db);
  }

  // Uploads of the form: their bytes go first, then their rows, in one
  // transaction that holds the rows (a submission naming one meanwhile
  // waits, then finds it gone).
  async purgeUploads(
    formId: string,
    batchSize: number,
    removeBytes: (uploads: PurgedUpload[]) => Promise<void>,
  ): Promise<number> {
    return this.db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<PurgedUpload[]>`
          SELECT file_name AS "fileName", form_id AS "formId", field_id AS "fieldId" FROM uploads
          WHERE form_id = ${formId} LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return 0;
        await removeBytes(rows);
        await tx.upload.deleteMany({ where: { fileName: { in: rows.map((row) => row.fileName) } } });
        return rows.length;
      },
      { timeout: 60_000 },
    );
  }

  // Outbox events of the form, published or not (one not yet published never
  // is): its responses' submissions (the form under `form_response`) and the
  // announcements of its deleted responses (the form at the top, with their
  // tokens). The outbox is short-lived (OUTBOX_RETENTION_MS), so finding them
  // by their payload stays cheap.
  purgeOutboxEvents(formId: string, batchSize: number): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM outbox_events WHERE id IN (
        SELECT id FROM outbox_events
        WHERE payload -> 'form_response' ->> 'form_id' = ${formId} OR payload ->> 'form_id' = ${formId}
        LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`;
  }

  // Served by the (form_id, submitted_at, id) index.
  purgeResponses(formId: string, batchSize: number): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM responses WHERE id IN (
        SELECT id FROM responses WHERE form_id = ${formId}
        LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`;
  }

  // One of the form's other tables (formOtherTables), by its form_id column.
  purgeOtherTable(table: string, formId: string, batchSize: number): Promise<number> {
    if (!tableName.test(table) || !formOtherTables().includes(table))
      throw new Error(`not a table of the form: ${table}`);
    // The name is one of ours (formOtherTables), checked above.
    return this.db.$executeRawUnsafe(
      `DELETE FROM "${table}" WHERE ctid IN (
         SELECT ctid FROM "${table}" WHERE form_id = $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      formId,
      batchSize,
    );
  }
}
