import { Injectable } from '@nestjs/common';
import { ResponsesPrismaClient } from '@formline/db';

const batchSize = 500;

// The reads and deletes of a right-to-be-forgotten request, in this region's
// responses database.
@Injectable()
export class ErasureRepository {
  constructor(private readonly db: ResponsesPrismaClient) {}

  // The account's responses whose searchable text mentions the address: a
  // superset of those that hold it (the caller checks each), read in batches.
  async *mentioning(
    accountId: string,
    email: string,
  ): AsyncGenerator<Array<{ id: string; payload: unknown }>> {
    let after: string | undefined;
    for (;;) {
      const rows = await this.db.response.findMany({
        where: { accountId, searchText: { contains: email }, ...(after ? { id: { gt: after } } : {}) },
        select: { id: true, payload: true },
        orderBy: { id: 'asc' },
        take: batchSize,
      });
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1].id;
    }
  }

  // The responses, and the outbox events that carry them (published or not:
  // an event not yet relayed is never sent), in one transaction. Events are
  // matched in their stored text (written by JSON.stringify: no spaces), not
  // parsed: one row PostgreSQL cannot parse as JSON (kept, set aside, by the
  // relay) must not fail every erasure.
  async deleteWithEvents(accountId: string, ids: readonly string[]): Promise<number> {
    const [, deleted] = await this.db.$transaction([
      this.db.$executeRaw`
        DELETE FROM outbox_events o
         WHERE strpos(o.payload::text, ${`"account_id":${JSON.stringify(accountId)}`}) > 0
           AND EXISTS (SELECT 1 FROM unnest(${[...ids]}::text[]) AS t(token)
                        WHERE strpos(o.payload::text, '"token":"' || t.token || '"') > 0)`,
      this.db.response.deleteMany({ where: { accountId, id: { in: [...ids] } } }),
    ]);
    return deleted.count;
  }
}
