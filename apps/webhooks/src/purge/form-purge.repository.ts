import { Injectable } from '@nestjs/common';
import { FormPurgeTable, WebhooksPrismaClient } from '@formline/db';

export interface PurgedDelivery {
  id: string;
  eventId: string;
  webhookId: string;
  attemptCount: number;
}

// The form_purges table of the webhooks database (libs/db's FormPurgeTable)
// and the batches that purge a deleted form's webhooks and delivery log: each
// deletes at most `batchSize` rows, taken with FOR UPDATE SKIP LOCKED so the
// dispatcher's statements never wait on it.
@Injectable()
export class FormPurgeRepository {
  readonly table: FormPurgeTable;

  constructor(private readonly db: WebhooksPrismaClient) {
    this.table = new FormPurgeTable(db);
  }

  // Deliveries of the form's webhooks with their attempts: their queued jobs
  // go first (`removeJobs`), then the rows, in one transaction that holds them.
  async purgeDeliveries(
    formId: string,
    batchSize: number,
    removeJobs: (deliveries: PurgedDelivery[]) => Promise<void>,
  ): Promise<number> {
    return this.db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<PurgedDelivery[]>`
          SELECT d.id, d.event_id AS "eventId", d.webhook_id AS "webhookId", d.attempt_count AS "attemptCount"
          FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id
          WHERE w.form_id = ${formId}
          LIMIT ${batchSize} FOR UPDATE OF d SKIP LOCKED`;
        if (rows.length === 0) return 0;
        await removeJobs(rows);
        const ids = rows.map((row) => row.id);
        await tx.$executeRaw`DELETE FROM delivery_attempts WHERE delivery_id = ANY(${ids}::text[])`;
        await tx.$executeRaw`DELETE FROM deliveries WHERE id = ANY(${ids}::text[])`;
        return rows.length;
      },
      { timeout: 60_000 },
    );
  }

  // The form's webhooks, once their deliveries are gone (any made meanwhile go with them).
  purgeWebhooks(formId: string, batchSize: number): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM webhooks WHERE id IN (
        SELECT id FROM webhooks WHERE form_id = ${formId} LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`;
  }
}
