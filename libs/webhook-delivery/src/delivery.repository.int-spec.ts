import { sqlPoolOf, type WebhooksPrismaClient, webhooksKeyedPool } from '@formline/db';
import {
  genericPlanOf,
  scratchWebhooksDatabase,
  type ScratchDatabase,
  stepsBeyondKeys,
  untilLockWaiters,
} from '@formline/testing';
import { DeliveryRepository, DeliveryStatus } from './delivery.repository';
import { deliveryLogAttempts } from './delivery-log.rows';
import {
  cancelAttemptSql,
  finishAndDisableSql,
  finishSql,
  planRecheckSql,
  planSql,
  startAttemptSql,
} from './delivery.statements';
import { SendFailureKind, type SendOutcome } from './send-outcome';

const ok: SendOutcome = { ok: true, statusCode: 204, durationMs: 12 };
const http500: SendOutcome = {
  ok: false,
  kind: SendFailureKind.http_status,
  statusCode: 500,
  message: 'HTTP 500',
  durationMs: 7,
  retryAfterMs: null,
};

// Every transition of a delivery, as the dispatcher and the webhooks service
// make them, on a database of the spec's own.
describe('DeliveryRepository against PostgreSQL', () => {
  let database: ScratchDatabase<WebhooksPrismaClient>;
  let deliveries: DeliveryRepository;
  let hookCount = 0;

  beforeAll(async () => {
    database = await scratchWebhooksDatabase();
    deliveries = new DeliveryRepository(database.client);
  });

  afterAll(() => database?.dispose());

  const newWebhook = async () => {
    hookCount += 1;
    return (
      await database.client.webhook.create({
        data: {
          id: `hook-${hookCount}`,
          formId: `form-${hookCount}`,
          accountId: 'account',
          tag: 'tag',
          url: 'http://127.0.0.1:9/hook',
          enabled: true,
        },
      })
    ).id;
  };
  const planOne = async (webhookId: string, eventId: string) => {
    const [planned] = await deliveries.plan([{ eventId, webhookId, body: `{"event_id":"${eventId}"}` }]);
    return planned.id;
  };
  // The attempt the dispatcher begins before a send.
  const begin = async (id: string, inFlightMs: number) =>
    (await deliveries.startAttempt(id, { once: false, inFlightMs }))!.attempt!;
  const statusOf = async (id: string) =>
    (await database.client.delivery.findUniqueOrThrow({ where: { id } })).status;

  it('plans one row per event and webhook, and planning again adds nothing and skips what is done', async () => {
    const [first, second] = [await newWebhook(), await newWebhook()];
    const items = ['e1', 'e2'].flatMap((eventId) =>
      [first, second].map((webhookId) => ({ eventId, webhookId, body: eventId })),
    );
    const planned = await deliveries.plan(items);
    expect(planned).toHaveLength(4);
    const done = planned.find((row) => row.eventId === 'e1' && row.webhookId === first)!;
    await deliveries.succeed(done.id, await begin(done.id, 1000), ok);

    const again = await deliveries.plan(items);
    expect(again.map((row) => row.id).sort()).toEqual(
      planned
        .filter((row) => row.id !== done.id)
        .map((row) => row.id)
        .sort(),
    );
    expect(await database.client.delivery.count({ where: { webhookId: { in: [first, second] } } })).toBe(4);
  });

  it('plans in one statement: new rows returned and stamped, existing pending ones found, finished ones not', async () => {
    const [first, second] = [await newWebhook(), await newWebhook()];
    const rowsOf = () =>
      database.client.delivery.findMany({
        where: { webhookId: { in: [first, second] } },
        orderBy: { id: 'asc' },
      });
    const pairs = (rows: readonly { eventId: string; webhookId: string }[]) =>
      rows.map((row) => `${row.eventId} ${row.webhookId}`).sort();
    const items = ['p1', 'p2', 'p3'].flatMap((eventId) =>
      [first, second].map((webhookId) => ({ eventId, webhookId, body: `{"event_id":"${eventId}"}` })),
    );
    const before = Date.now();
    const planned = await deliveries.plan(items);
    const after = Date.now();
    expect(pairs(planned)).toEqual(pairs(items));
    const rows = await rowsOf();
    expect(rows.map((row) => row.id).sort()).toEqual(planned.map((row) => row.id).sort());
    for (const row of rows) {
      const item = items.find((one) => one.eventId === row.eventId && one.webhookId === row.webhookId)!;
      expect(row).toMatchObject({
        body: item.body,
        status: DeliveryStatus.pending,
        attemptCount: 0,
        nextAttemptAt: null,
      });
      expect(planned.find((one) => one.id === row.id)).toEqual({
        id: row.id,
        eventId: row.eventId,
        webhookId: row.webhookId,
      });
      // UTC, as Prisma writes and reads timestamps; the column has millisecond precision.
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(row.createdAt.getTime()).toBeLessThanOrEqual(after + 1000);
      expect(row.updatedAt).toEqual(row.createdAt);
    }

    // One succeeded, one failed: not planned again, nor touched.
    const done = planned.find((row) => row.eventId === 'p1' && row.webhookId === first)!;
    await deliveries.succeed(done.id, await begin(done.id, 1000), ok);
    const failed = planned.find((row) => row.eventId === 'p2' && row.webhookId === second)!;
    await deliveries.giveUp(failed.id, await begin(failed.id, 1000), http500, null);
    const finishedBefore = await database.client.delivery.findMany({
      where: { id: { in: [done.id, failed.id] } },
      orderBy: { id: 'asc' },
    });

    // Again, with one item twice and one new pair: the still-pending rows and
    // the new one, each once; nothing else inserted, no id changed.
    const again = await deliveries.plan([
      ...items,
      items[5],
      { eventId: 'p4', webhookId: first, body: 'p4' },
    ]);
    const added = again.find((row) => row.eventId === 'p4')!;
    expect(again.map((row) => row.id).sort()).toEqual(
      [
        ...planned.filter((row) => row.id !== done.id && row.id !== failed.id).map((row) => row.id),
        added.id,
      ].sort(),
    );
    const rowsAfter = await rowsOf();
    expect(rowsAfter).toHaveLength(rows.length + 1);
    expect(rowsAfter.filter((row) => row.id !== added.id).map((row) => [row.id, row.body])).toEqual(
      rows.map((row) => [row.id, row.body]),
    );
    expect(
      await database.client.delivery.findMany({
        where: { id: { in: [done.id, failed.id] } },
        orderBy: { id: 'asc' },
      }),
    ).toEqual(finishedBefore);
    expect(await deliveries.plan([])).toEqual([]);
  });

  it('plans a row that another planner inserted while its statement ran, as pending', async () => {
    const webhookId = await newWebhook();
    // The same event redelivered to another replica: its insert is under way.
    const other = await sqlPoolOf(database.client).connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO deliveries (id, event_id, webhook_id, body, updated_at)
         VALUES ('raced-row', 'e-raced', $1, 'raced', now() AT TIME ZONE 'UTC')`,
        [webhookId],
      );
      const planning = deliveries.plan([
        { eventId: 'e-raced', webhookId, body: 'raced' },
        { eventId: 'e-calm', webhookId, body: 'calm' },
      ]);
      // The plan waits for the other's row, then skips it: committed after the plan began.
      const waiting = await untilLockWaiters((sql) =>
        database.client.$queryRawUnsafe<Array<{ waiting: number }>>(sql),
      );
      expect(waiting).toBe(1);
      await other.query('COMMIT');
      const planned = await planning;
      expect(planned.map((row) => [row.eventId, row.id === 'raced-row']).sort()).toEqual([
        ['e-calm', false],
        ['e-raced', true],
      ]);
    } finally {
      other.release(true);
    }
  });

  it('counts an attempt before the send, records its outcome once, and closes an attempt taken over', async () => {
    const id = await planOne(await newWebhook(), 'e-attempts');
    const planned = await database.client.delivery.findUniqueOrThrow({ where: { id } });
    const first = await begin(id, 60_000);
    expect(first.attemptNumber).toBe(1);
    // Counting an attempt changes no indexed column (not updated_at, which
    // the retention index holds): the update can stay on the row's page.
    const counted = await database.client.delivery.findUniqueOrThrow({ where: { id } });
    expect(counted).toEqual({ ...planned, attemptCount: 1 });
    const { rows: options } = await sqlPoolOf(database.client).query<{ options: string[] }>(
      "SELECT reloptions AS options FROM pg_class WHERE relname = 'deliveries'",
    );
    expect(options[0].options).toEqual(['fillfactor=80']);
    // The dispatcher died mid-send; another took the job over.
    const second = await begin(id, 60_000);
    expect(second.attemptNumber).toBe(2);
    const retryAt = new Date(Date.now() + 60_000);
    expect(await deliveries.retryLater(id, second, http500, retryAt)).toBe(true);
    // A record retried after its first try committed applies nothing.
    expect(await deliveries.retryLater(id, second, http500, retryAt)).toBe(false);
    expect(await deliveries.succeed(id, second, ok)).toBe(false);

    const third = await begin(id, 60_000);
    expect(await deliveries.succeed(id, third, ok)).toBe(true);
    const row = await database.client.delivery.findUniqueOrThrow({
      where: { id },
      include: { attempts: { orderBy: { attemptedAt: 'asc' } } },
    });
    expect(row).toMatchObject({ status: DeliveryStatus.succeeded, attemptCount: 3 });
    expect(
      row.attempts.map((attempt) => [attempt.errorKind, attempt.statusCode, attempt.inFlightUntil]),
    ).toEqual([
      [SendFailureKind.interrupted, null, null],
      [SendFailureKind.http_status, 500, null],
      [null, 204, null],
    ]);
  });

  it('starts an attempt only of a pending delivery of an enabled webhook, unless asked once, and undoes one', async () => {
    const webhookId = await newWebhook();
    const id = await planOne(webhookId, 'e-start');
    const started = await deliveries.startAttempt(id, { once: false, inFlightMs: 60_000 });
    const row = await database.client.delivery.findUniqueOrThrow({ where: { id } });
    expect(started).toEqual({
      delivery: {
        id,
        eventId: 'e-start',
        body: '{"event_id":"e-start"}',
        status: DeliveryStatus.pending,
        attemptCount: 1,
        nextAttemptAt: null,
        inFlightUntil: null,
        createdAt: row.createdAt,
        webhook: {
          id: webhookId,
          url: 'http://127.0.0.1:9/hook',
          enabled: true,
          verifySsl: true,
          secretSealed: null,
        },
      },
      attempt: { attemptId: expect.any(String), attemptNumber: 1 },
    });
    // Nothing was sent after all: as if it never began; a recorded attempt stays.
    await deliveries.cancelAttempt(id, started!.attempt!);
    expect(await database.client.deliveryAttempt.count({ where: { deliveryId: id } })).toBe(0);
    const again = await begin(id, 60_000);
    expect(again.attemptNumber).toBe(1);
    await deliveries.succeed(id, again, ok);
    await deliveries.cancelAttempt(id, again);
    expect(await database.client.delivery.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: DeliveryStatus.succeeded,
      attemptCount: 1,
    });

    // Ended: nothing to start, unless a person asked for it once more.
    expect((await deliveries.startAttempt(id, { once: false, inFlightMs: 1000 }))!.attempt).toBeNull();
    expect((await deliveries.startAttempt(id, { once: true, inFlightMs: 1000 }))!.attempt).toMatchObject({
      attemptNumber: 2,
    });
    // Its webhook disabled: nothing to start either; a delivery gone: null.
    const other = await planOne(webhookId, 'e-start-disabled');
    await database.client.webhook.update({ where: { id: webhookId }, data: { enabled: false } });
    const disabled = await deliveries.startAttempt(other, { once: false, inFlightMs: 1000 });
    expect(disabled).toMatchObject({ delivery: { status: DeliveryStatus.pending }, attempt: null });
    expect(await database.client.delivery.findUniqueOrThrow({ where: { id: other } })).toMatchObject({
      attemptCount: 0,
    });
    await database.client.webhook.update({ where: { id: webhookId }, data: { enabled: true } });
    expect(await deliveries.startAttempt('no-such-delivery', { once: true, inFlightMs: 1000 })).toBeNull();
  });

  it('begins a first attempt only while there was none, checked on the locked row, and says when the next is due', async () => {
    const webhookId = await newWebhook();
    const id = await planOne(webhookId, 'e-first');
    // Another run holds the row and begins the first attempt meanwhile: this
    // one's statement read no attempt as it began, then waits for the lock,
    // and sends nothing once it has it.
    let waiting: Promise<unknown> | undefined;
    await database.client.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM deliveries WHERE id = ${id} FOR UPDATE`;
      waiting = deliveries.startAttempt(id, { once: false, inFlightMs: 60_000, firstOnly: true });
      // Long enough for the statement to reach the row and wait on its lock.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.$executeRaw`UPDATE deliveries SET attempt_count = 1 WHERE id = ${id}`;
    });
    const raced = (await waiting) as Awaited<ReturnType<typeof deliveries.startAttempt>>;
    expect(raced!.attempt).toBeNull();
    // What it read as it began: no attempt yet (another run made it just now).
    expect(raced!.delivery.attemptCount).toBe(0);
    await database.client.delivery.update({ where: { id }, data: { attemptCount: 0 } });

    const attempt = (await deliveries.startAttempt(id, { once: false, inFlightMs: 60_000, firstOnly: true }))!
      .attempt!;
    // While that attempt is in flight, a first-only run says until when.
    const inFlight = await deliveries.startAttempt(id, { once: false, inFlightMs: 60_000, firstOnly: true });
    expect(inFlight!.attempt).toBeNull();
    expect(inFlight!.delivery.inFlightUntil!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    const due = new Date(Date.now() + 30_000);
    await deliveries.retryLater(
      id,
      attempt,
      {
        ok: false,
        kind: SendFailureKind.http_status,
        statusCode: 500,
        message: 'HTTP 500',
        durationMs: 2,
        retryAfterMs: null,
      },
      due,
    );
    const again = await deliveries.startAttempt(id, { once: false, inFlightMs: 60_000, firstOnly: true });
    expect(again!.attempt).toBeNull();
    expect(again!.delivery.nextAttemptAt?.getTime()).toBe(due.getTime());
    expect(again!.delivery.inFlightUntil).toBeNull();
    // Its own job's run (not first only) begins the second.
    expect((await deliveries.startAttempt(id, { once: false, inFlightMs: 60_000 }))!.attempt).toMatchObject({
      attemptNumber: 2,
    });
  });

  it('answers each of many concurrent attempts for its own delivery, sharing statements', async () => {
    const webhookId = await newWebhook();
    const ids = await Promise.all(Array.from({ length: 30 }, (_, n) => planOne(webhookId, `e-many-${n}`)));
    const started = await Promise.all(
      ids.map((id) => deliveries.startAttempt(id, { once: false, inFlightMs: 60_000 })),
    );
    expect(
      started.map((one) => [one!.delivery.id, one!.delivery.eventId, one!.attempt!.attemptNumber]),
    ).toEqual(ids.map((id, n) => [id, `e-many-${n}`, 1]));
    // Every other one succeeds, the rest retry; one of each is recorded twice.
    const retryAt = new Date(Date.now() + 60_000);
    const record = (n: number) =>
      n % 2 === 0
        ? deliveries.succeed(ids[n], started[n]!.attempt!, ok)
        : deliveries.retryLater(ids[n], started[n]!.attempt!, http500, retryAt);
    const recorded = await Promise.all([...ids.map((_, n) => record(n)), record(0), record(1)]);
    expect(recorded.slice(0, ids.length).every(Boolean)).toBe(true);
    expect(recorded.slice(ids.length)).toEqual([false, false]);
    const rows = await database.client.delivery.findMany({
      where: { id: { in: ids } },
      include: { attempts: true },
    });
    for (const row of rows) {
      const n = ids.indexOf(row.id);
      expect(row).toMatchObject({
        status: n % 2 === 0 ? DeliveryStatus.succeeded : DeliveryStatus.pending,
        attemptCount: 1,
        nextAttemptAt: n % 2 === 0 ? null : new Date(Math.floor(retryAt.getTime())),
      });
      expect(row.attempts).toMatchObject([
        n % 2 === 0
          ? { statusCode: 204, errorKind: null, durationMs: 12, inFlightUntil: null }
          : {
              statusCode: 500,
              errorKind: SendFailureKind.http_status,
              error: 'HTTP 500',
              inFlightUntil: null,
            },
      ]);
    }
  });

  it('gives up, disabling the webhook with the reason, or abandons when it was disabled meanwhile', async () => {
    const webhookId = await newWebhook();
    const id = await planOne(webhookId, 'e-give-up');
    const attempt = await begin(id, 1000);
    expect(await deliveries.giveUp(id, attempt, http500, { webhookId, reason: '3 attempts failed' })).toBe(
      true,
    );
    expect(await statusOf(id)).toBe(DeliveryStatus.failed);
    expect(await database.client.webhook.findUniqueOrThrow({ where: { id: webhookId } })).toMatchObject({
      enabled: false,
      disabledReason: '3 attempts failed',
    });

    const other = await planOne(webhookId, 'e-abandoned');
    await begin(other, 60_000);
    await deliveries.abandon(other);
    expect(await statusOf(other)).toBe(DeliveryStatus.failed);
    expect(
      await database.client.deliveryAttempt.count({
        where: { deliveryId: other, inFlightUntil: { not: null } },
      }),
    ).toBe(0);

    // A person's redelivery reopens it, only through its own webhook.
    expect(await deliveries.reopen(other, 'another-hook')).toBeNull();
    expect(await deliveries.reopen(other, webhookId)).toMatchObject({ status: DeliveryStatus.pending });
  });

  it('reopens the failed deliveries of a window, oldest first up to a limit, and no others', async () => {
    const webhookId = await newWebhook();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await planOne(webhookId, `e-window-${n}`));
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));
    // Created a minute apart; the third still pending, the others failed.
    for (const [n, id] of ids.entries()) {
      await database.client.delivery.update({
        where: { id },
        data: { createdAt: at(n), status: n === 2 ? DeliveryStatus.pending : DeliveryStatus.failed },
      });
    }
    const window = { since: at(1), until: at(4) };
    // Another webhook's failed deliveries are not its.
    expect(await deliveries.reopenFailed('another-hook', window, 10)).toEqual([]);
    expect(await deliveries.reopenFailed(webhookId, window, 1)).toEqual([{ id: ids[1], attemptCount: 0 }]);
    expect(await deliveries.reopenFailed(webhookId, window, 10)).toEqual([
      { id: ids[3], attemptCount: 0 },
      { id: ids[4], attemptCount: 0 },
    ]);
    expect(await deliveries.reopenFailed(webhookId, window, 10)).toEqual([]);
    expect(await Promise.all(ids.map(statusOf))).toEqual([
      DeliveryStatus.failed,
      DeliveryStatus.pending,
      DeliveryStatus.pending,
      DeliveryStatus.pending,
      DeliveryStatus.pending,
    ]);
  });

  it('pages the log newest first by cursor, both ways, ties on created_at broken by id', async () => {
    const webhookId = await newWebhook();
    const ids: string[] = [];
    for (let n = 0; n < 7; n++) ids.push(await planOne(webhookId, `e-page-${n}`));
    // Three of them created in the same instant.
    const tie = new Date('2026-01-01T00:00:00Z');
    await database.client.delivery.updateMany({
      where: { id: { in: ids.slice(2, 5) } },
      data: { createdAt: tie },
    });
    const newestFirst = (
      await database.client.delivery.findMany({
        where: { webhookId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      })
    ).map((row) => row.id);

    const seen: string[] = [];
    let page = await deliveries.page(webhookId, { pageSize: 2 });
    while (page.length > 0) {
      seen.push(...page.map((row) => row.id));
      page = await deliveries.page(webhookId, { pageSize: 2, before: page.at(-1)!.id });
    }
    expect(seen).toEqual(newestFirst);

    const back: string[] = [newestFirst.at(-1)!];
    page = await deliveries.page(webhookId, { pageSize: 2, after: back[0] });
    while (page.length > 0) {
      back.unshift(...page.map((row) => row.id));
      page = await deliveries.page(webhookId, { pageSize: 2, after: page[0].id });
    }
    expect(back).toEqual(newestFirst);

    expect(await deliveries.page(webhookId, { pageSize: 2, before: 'no-such-delivery' })).toEqual([]);
    expect(await deliveries.page('another-hook', { pageSize: 2, before: ids[0] })).toEqual([]);
  });

  it("shows a delivery's newest attempts only, and never its body", async () => {
    const webhookId = await newWebhook();
    const id = await planOne(webhookId, 'e-many-attempts');
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n));
    await database.client.deliveryAttempt.createMany({
      data: Array.from({ length: deliveryLogAttempts + 5 }, (_, n) => ({
        id: `attempt-${String(n).padStart(2, '0')}`,
        deliveryId: id,
        attemptedAt: at(n),
        statusCode: 500,
        durationMs: n,
      })),
    });
    const [row] = await deliveries.page(webhookId, { pageSize: 1 });
    expect(row).not.toHaveProperty('body');
    expect(row.attempts).toHaveLength(deliveryLogAttempts);
    // The newest first, its time as stored (UTC).
    expect(row.attempts[0]).toMatchObject({ attemptedAt: at(deliveryLogAttempts + 4), statusCode: 500 });
    expect(row.attempts.map((attempt) => attempt.durationMs)).toEqual(
      Array.from({ length: deliveryLogAttempts }, (_, n) => deliveryLogAttempts + 4 - n),
    );
  });

  it('prunes finished deliveries changed before the cutoff, with their attempts, never pending ones', async () => {
    const webhookId = await newWebhook();
    const finished = await planOne(webhookId, 'e-old-finished');
    await deliveries.succeed(finished, await begin(finished, 1000), ok);
    const pending = await planOne(webhookId, 'e-old-pending');
    const recent = await planOne(webhookId, 'e-recent');
    await deliveries.succeed(recent, await begin(recent, 1000), ok);
    await database.client.$executeRaw`UPDATE deliveries SET updated_at = updated_at - interval '40 days'
      WHERE id = ANY(${[finished, pending]}::text[])`;

    const cutoff = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    let pruned = 0;
    for (
      let batch = await deliveries.pruneFinished(cutoff, 1);
      batch > 0;
      batch = await deliveries.pruneFinished(cutoff, 1)
    )
      pruned += batch;
    expect(pruned).toBe(1);
    expect(await database.client.delivery.findUnique({ where: { id: finished } })).toBeNull();
    expect(await database.client.deliveryAttempt.count({ where: { deliveryId: finished } })).toBe(0);
    expect(await statusOf(pending)).toBe(DeliveryStatus.pending);
    expect(await statusOf(recent)).toBe(DeliveryStatus.succeeded);
  });

  // The keyed statements' connections make one generic plan per statement:
  // made on these near-empty tables, where reading a table whole would be
  // cheapest, it still looks each key up in an index, as it must once the
  // tables hold millions of rows (and as many pending deliveries as an outage
  // leaves).
  it('plans its statements as key lookups on a new, small table', async () => {
    const statements = {
      startAttemptSql,
      finishSql,
      finishAndDisableSql,
      planSql,
      planRecheckSql,
      cancelAttemptSql,
    };
    const keyed = await webhooksKeyedPool(database.client).connect();
    try {
      for (const [name, text] of Object.entries(statements)) {
        const plan = await genericPlanOf(keyed, text);
        expect({ [name]: stepsBeyondKeys(plan, /deliveries_status_updated_at_idx/) }).toEqual({ [name]: [] });
        expect(plan).toContain('Index Cond');
      }
    } finally {
      keyed.release();
    }
  });
});
