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
  // an event not yet relayed is never sent), in one transaction.
  async deleteWithEvents(accountId: string, ids: readonly string[]): Promise<number> {
    const [, deleted] = await this.db.$transaction([
      this.db.$executeRaw`
        DELETE FROM outbox_events
         WHERE payload->'form_response'->>'token' = ANY(${[...ids]}::text[])
           AND payload->>'account_id' = ${accountId}`,
      this.db.response.deleteMany({ where: { accountId, id: { in: [...ids] } } }),
    ]);
    return deleted.count;
  }
}
