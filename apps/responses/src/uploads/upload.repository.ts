import { Injectable } from '@nestjs/common';
import { ResponsesPrismaClient } from '@formline/db';
import { DomainError, ErrorCode } from '@formline/errors';

export interface UploadRow {
  fileName: string;
  fieldId: string;
  responseId: string | null;
}

// What attaching needs of a transaction: the uploads table.
type Tx = Pick<ResponsesPrismaClient, 'upload'>;

export interface StoredUpload {
  fileName: string;
  formId: string;
  fieldId: string;
}

// Respondents' uploads (uploads table): recorded as they arrive, held by the
// response that answers with them, pruned with their bytes when none does.
@Injectable()
export class UploadRepository {
  constructor(private readonly db: ResponsesPrismaClient) {}

  async record(upload: { formId: string; fieldId: string; fileName: string; size: number }): Promise<void> {
    await this.db.upload.create({ data: upload });
  }

  find(formId: string, fileNames: readonly string[]): Promise<UploadRow[]> {
    return this.db.upload.findMany({
      where: { formId, fileName: { in: [...fileNames] } },
      select: { fileName: true, fieldId: true, responseId: true },
    });
  }

  // Within the response's write: the response holds exactly these uploads,
  // those it held before and no longer names go back to the pruner. An upload
  // taken by another response (or pruned) since it was checked fails the write.
  static async attach(tx: Tx, formId: string, responseId: string, fileNames: readonly string[]) {
    await tx.upload.updateMany({
      where: { responseId, fileName: { notIn: [...fileNames] } },
      data: { responseId: null },
    });
    if (fileNames.length === 0) return;
    const { count } = await tx.upload.updateMany({
      where: {
        formId,
        fileName: { in: [...fileNames] },
        OR: [{ responseId: null }, { responseId }],
      },
      data: { responseId },
    });
    if (count !== fileNames.length) {
      throw new DomainError(
        ErrorCode.ValidationError,
        'A file of this submission is no longer available: upload it again.',
        [
          {
            code: 'FILE_NOT_UPLOADED',
            description: 'a file_url names an upload that is gone or answers another response',
            field: 'answers',
            in: 'body',
          },
        ],
      );
    }
  }

  // Within the transaction that deletes these responses: the uploads they
  // hold go with them, bytes first, then the rows (held meanwhile). Left to
  // the response's delete, they would wait a day for the retention job.
  static async removeOfResponses(
    tx: Pick<ResponsesPrismaClient, '$queryRaw' | 'upload'>,
    responseIds: readonly string[],
    removeBytes: (uploads: StoredUpload[]) => Promise<void>,
  ): Promise<number> {
    if (responseIds.length === 0) return 0;
    const rows = await tx.$queryRaw<StoredUpload[]>`
      SELECT file_name AS "fileName", form_id AS "formId", field_id AS "fieldId" FROM uploads
       WHERE response_id = ANY(${[...responseIds]}::text[]) FOR UPDATE`;
    if (rows.length === 0) return 0;
    await removeBytes(rows);
    await tx.upload.deleteMany({ where: { fileName: { in: rows.map((row) => row.fileName) } } });
    return rows.length;
  }

  // One retention batch: uploads no response holds, older than the cutoff.
  // Their bytes go first, then the rows, in one transaction that holds the
  // rows (a submission naming one meanwhile waits, then finds it gone), one
  // replica at a time (advisory lock, as libs/db's RetentionPruner expects).
  async pruneUnattached(
    cutoff: Date,
    batchSize: number,
    removeBytes: (uploads: StoredUpload[]) => Promise<void>,
  ): Promise<number> {
    return this.db.$transaction(
      async (tx) => {
        const [{ held }] = await tx.$queryRaw<Array<{ held: boolean }>>`
          SELECT pg_try_advisory_xact_lock(hashtext('retention:uploads')) AS held`;
        if (!held) return 0;
        const rows = await tx.$queryRaw<StoredUpload[]>`
          SELECT file_name AS "fileName", form_id AS "formId", field_id AS "fieldId" FROM uploads
          WHERE response_id IS NULL AND created_at < ${cutoff}
          ORDER BY created_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return 0;
        await removeBytes(rows);
        await tx.upload.deleteMany({ where: { fileName: { in: rows.map((row) => row.fileName) } } });
        return rows.length;
      },
      { timeout: 60_000 },
    );
  }
}
