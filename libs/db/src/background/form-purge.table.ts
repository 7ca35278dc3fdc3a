import type { FormPurgeQueue, LeasedFormPurge } from './form-purge.runner';

/** What the table needs of a service's Prisma client. */
export interface RawSqlClient {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
}

// The form_purges table, the same in every regional database that holds a
// form's data (responses, webhooks), each owned by its service: one row per
// deleted form whose data there is still being purged.
export class FormPurgeTable implements FormPurgeQueue {
  constructor(private readonly db: RawSqlClient) {}

  // A deletion consumed: its purge is recorded once (a redelivered event, or
  // one for a form being purged, adds nothing).
  async request(purge: { formId: string; accountId: string; deletedAt: Date }): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO form_purges (form_id, account_id, deleted_at)
      VALUES (${purge.formId}, ${purge.accountId}, ${purge.deletedAt})
      ON CONFLICT (form_id) DO NOTHING`;
  }

  async lease(leaseMs: number): Promise<LeasedFormPurge | undefined> {
    const rows = await this.db.$queryRaw<LeasedFormPurge[]>`
      UPDATE form_purges
         SET leased_until = now() AT TIME ZONE 'UTC' + ${leaseMs}::float8 * interval '1 millisecond'
       WHERE form_id = (
         SELECT form_id FROM form_purges
          WHERE leased_until IS NULL OR leased_until <= now() AT TIME ZONE 'UTC'
          ORDER BY created_at, form_id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING form_id AS "formId", deleted_at AS "deletedAt"`;
    return rows[0];
  }

  async progress(formId: string, deleted: number, leaseMs: number): Promise<void> {
    await this.db.$executeRaw`
      UPDATE form_purges SET purged = purged + ${deleted},
        leased_until = now() AT TIME ZONE 'UTC' + ${leaseMs}::float8 * interval '1 millisecond'
      WHERE form_id = ${formId}`;
  }

  async deferUntil(formId: string, at: Date): Promise<void> {
    await this.db.$executeRaw`UPDATE form_purges SET leased_until = ${at} WHERE form_id = ${formId}`;
  }

  async finish(formId: string): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ purged: number }>>`
      DELETE FROM form_purges WHERE form_id = ${formId} RETURNING purged`;
    return rows[0]?.purged ?? 0;
  }

  /** Purges not finished yet (for tests and operators). */
  async pending(): Promise<Array<{ formId: string; purged: number }>> {
    return this.db.$queryRaw<Array<{ formId: string; purged: number }>>`
      SELECT form_id AS "formId", purged FROM form_purges ORDER BY created_at`;
  }
}
