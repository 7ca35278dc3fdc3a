import { Injectable } from '@nestjs/common';
import { ResponsesPrismaClient, jsonStringMemberPattern } from '@formline/db';

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
  // an event not yet relayed is never sent, except one its writer is
  // publishing at that moment), in one transaction. Events are
  // found by their text and checked here, never parsed by PostgreSQL: one
  // unparsable row (the relay's dead letters) must not fail the erasure.
  async deleteWithEvents(accountId: string, ids: readonly string[]): Promise<number> {
    const tokens = new Set(ids);
    const patterns = ids.map((id) => jsonStringMemberPattern('token', id));
    return this.db.$transaction(async (tx) => {
      const candidates = await tx.$queryRaw<Array<{ id: string; payload: string }>>`
        SELECT id, payload::text AS payload FROM outbox_events WHERE payload::text LIKE ANY(${patterns}::text[])`;
      const eventIds = candidates
        .filter((row) => carriesResponse(row.payload, accountId, tokens))
        .map((row) => row.id);
      if (eventIds.length > 0) await tx.outboxEvent.deleteMany({ where: { id: { in: eventIds } } });
      return (await tx.response.deleteMany({ where: { accountId, id: { in: [...ids] } } })).count;
    });
  }
}

function carriesResponse(payloadText: string, accountId: string, tokens: ReadonlySet<string>): boolean {
  const event = parseEvent(payloadText);
  return event?.account_id === accountId && tokens.has(event.form_response?.token ?? '');
}

function parseEvent(text: string): { account_id?: unknown; form_response?: { token?: string } } | undefined {
  try {
    return JSON.parse(text) as { account_id?: unknown; form_response?: { token?: string } };
  } catch {
    return undefined;
  }
}
