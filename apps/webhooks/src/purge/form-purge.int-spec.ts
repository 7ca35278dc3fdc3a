import { randomUUID } from 'node:crypto';
import {
  FormPurgeRunner,
  type FormPurgeSettings,
  type FormPurgeStep,
  type WebhooksPrismaClient,
} from '@formline/db';
import { connectRedisFailFast } from '@formline/messaging';
import { scratchWebhooksDatabase, type ScratchDatabase, testInfra } from '@formline/testing';
import {
  DeliveryQueue,
  DeliveryRepository,
  deliveryJobId,
  type PlannedDelivery,
} from '@formline/webhook-delivery';
import type { Redis } from 'ioredis';
import { formPurgeSteps } from './form-purge.job';
import { FormPurgeRepository } from './form-purge.repository';

const ok = { ok: true as const, statusCode: 204, durationMs: 5 };

// The webhooks service's form purge against a real database and Redis: a
// deleted form's webhooks, deliveries, attempts, their queued jobs and
// BullMQ's log entries naming them go, in bounded batches; a worker dying
// after one batch leaves a purge the next one finishes, each row deleted
// exactly once; a rerun deletes nothing more; another form keeps everything.
describe('form purge (webhooks database and delivery queue)', () => {
  let scratch: ScratchDatabase<WebhooksPrismaClient>;
  let db: WebhooksPrismaClient;
  let redis: Redis;
  let queue: DeliveryQueue;
  let purges: FormPurgeRepository;
  // Unique to this run: the queue's Redis is shared with other specs.
  const run = randomUUID().slice(0, 8);
  const purged = `form-purged-${run}`;
  const kept = `form-kept-${run}`;

  beforeAll(async () => {
    scratch = await scratchWebhooksDatabase();
    db = scratch.client;
    redis = connectRedisFailFast({ REDIS_URL: testInfra().integrationRedisUrl.us }, 'form-purge-int-spec');
    queue = new DeliveryQueue(redis);
    purges = new FormPurgeRepository(db);
  });

  afterAll(async () => {
    await queue?.close();
    redis?.disconnect();
    await scratch?.dispose();
  });

  // Two webhooks, `events` events each: a delivery per (event, webhook), its
  // job queued, one attempt on each, and a redelivery asked for on one.
  async function seed(formId: string, events: number): Promise<PlannedDelivery[]> {
    const repository = new DeliveryRepository(db);
    const planned: PlannedDelivery[] = [];
    for (const tag of ['a', 'b']) {
      const webhookId = `${formId}-${tag}`;
      await db.webhook.create({
        data: { id: webhookId, formId, accountId: 'account', tag, url: 'http://127.0.0.1:9/', enabled: true },
      });
      const rows = await repository.plan(
        Array.from({ length: events }, (_, i) => ({ eventId: `${formId}-e${i}`, webhookId, body: '{}' })),
      );
      planned.push(...rows.map((row) => ({ id: row.id, eventId: row.eventId, webhookId })));
    }
    await queue.addPlanned(planned);
    for (const delivery of planned) {
      const started = await repository.startAttempt(delivery.id, { once: false, inFlightMs: 1000 });
      await repository.succeed(delivery.id, started!.attempt!, ok);
    }
    await queue.addRedelivery(planned[0].id, 1);
    return planned;
  }

  // The first-attempts jobs (none runs here) that carry any of the deliveries.
  const firstAttemptsJobIds = async (deliveries: readonly PlannedDelivery[]) => {
    const ids = new Set(deliveries.map((delivery) => delivery.id));
    return (await queue.firstAttempts.getJobs(['waiting', 'delayed', 'completed', 'failed']))
      .filter(
        (job) => 'deliveries' in job.data && job.data.deliveries.some((item) => ids.has(item.deliveryId)),
      )
      .map((job) => job.id!);
  };
  const jobIdsOf = (deliveries: readonly PlannedDelivery[]) => [
    ...deliveries.map((delivery) => deliveryJobId.planned(delivery.eventId, delivery.webhookId)),
    deliveryJobId.redelivery(deliveries[0].id, 1),
  ];
  const jobsLeft = async (deliveries: readonly PlannedDelivery[]) =>
    (await Promise.all(jobIdsOf(deliveries).map((id) => queue.queue.getJob(id)))).filter(Boolean).length +
    (await firstAttemptsJobIds(deliveries)).length;
  // Entries of the delivery queue's log naming the deliveries' jobs.
  const loggedEvents = async (deliveries: readonly PlannedDelivery[]) => {
    const ids = new Set(jobIdsOf(deliveries));
    const entries = await redis.xrange(queue.queue.keys.events, '-', '+');
    return entries.filter(([, fields]) => fields.some((value) => ids.has(value))).length;
  };
  const rowsOf = async (formId: string) => {
    const [row] = await db.$queryRaw<Array<{ webhooks: bigint; deliveries: bigint; attempts: bigint }>>`
      SELECT (SELECT count(*) FROM webhooks WHERE form_id = ${formId}) AS webhooks,
             (SELECT count(*) FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id
               WHERE w.form_id = ${formId}) AS deliveries,
             (SELECT count(*) FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
               JOIN webhooks w ON w.id = d.webhook_id WHERE w.form_id = ${formId}) AS attempts`;
    return {
      webhooks: Number(row.webhooks),
      deliveries: Number(row.deliveries),
      attempts: Number(row.attempts),
    };
  };

  const silent = { log: () => undefined, warn: () => undefined };
  const settings: FormPurgeSettings = {
    batchSize: 3,
    pauseMs: 0,
    intervalMs: 60_000,
    settleMs: 0,
    leaseMs: 500,
  };
  function countingSteps(counts: Map<string, number>, crashAfter = Infinity): FormPurgeStep[] {
    let batches = 0;
    return formPurgeSteps(purges, queue).map((step) => ({
      name: step.name,
      purgeBatch: async (formId, size) => {
        if (batches++ >= crashAfter) throw new Error('worker died');
        const deleted = await step.purgeBatch(formId, size);
        counts.set(step.name, (counts.get(step.name) ?? 0) + deleted);
        return deleted;
      },
    }));
  }

  it("takes deleted deliveries out of a first-attempts job not yet run, keeping the others', and removes it when none is left", async () => {
    const delivery = (id: string) => ({
      id: `${id}-${run}`,
      eventId: `e-${id}-${run}`,
      webhookId: `w-${run}`,
    });
    const [a1, a2, b1] = [delivery('a1'), delivery('a2'), delivery('b1')];
    await queue.addPlanned([a1, a2, b1]);
    const carrying = async (id: string) =>
      (await queue.firstAttempts.getJobs(['waiting'])).filter((job) =>
        job.data.deliveries.some((item) => item.deliveryId === id),
      );
    const [job] = await carrying(b1.id);
    await queue.removeForDeliveries([a1, a2].map((one) => ({ ...one, attemptCount: 0 })));
    expect(
      (await queue.firstAttempts.getJob(job.id!))?.data.deliveries.map((item) => item.deliveryId),
    ).toEqual([b1.id]);
    // Nothing of them went to a job of its own: the first-attempts job still carries b1.
    expect(await queue.queue.getJob(deliveryJobId.planned(b1.eventId, b1.webhookId))).toBeUndefined();
    await queue.removeForDeliveries([{ ...b1, attemptCount: 0 }]);
    expect(await queue.firstAttempts.getJob(job.id!)).toBeUndefined();
  });

  it('purges the form in batches across a worker that died, once, and leaves the other form whole', async () => {
    const gone = await seed(purged, 4);
    const other = await seed(kept, 2);
    expect(await rowsOf(purged)).toEqual({ webhooks: 2, deliveries: 8, attempts: 8 });
    // One first-attempts job for the form's deliveries, and a redelivery.
    expect(await jobsLeft(gone)).toBe(2);
    expect(await loggedEvents(gone)).toBeGreaterThan(0);
    await purges.table.request({ formId: purged, accountId: 'account', deletedAt: new Date() });

    const counts = new Map<string, number>();
    await new FormPurgeRunner(purges.table, countingSteps(counts, 1), settings, silent).runOnce();
    expect(counts.get('deliveries')).toBe(3);
    expect((await rowsOf(purged)).deliveries).toBe(5);

    await new Promise((resolve) => setTimeout(resolve, 600));
    const next = new FormPurgeRunner(purges.table, countingSteps(counts), settings, silent);
    await next.runOnce();
    expect(await rowsOf(purged)).toEqual({ webhooks: 0, deliveries: 0, attempts: 0 });
    expect(Object.fromEntries(counts)).toEqual({ deliveries: 8, webhooks: 2 });
    expect(await jobsLeft(gone)).toBe(0);
    expect(await loggedEvents(gone)).toBe(0);
    expect(await purges.table.pending()).toEqual([]);

    // A rerun, and the deletion taken again: nothing more.
    await purges.table.request({ formId: purged, accountId: 'account', deletedAt: new Date() });
    await next.runOnce();
    expect(Object.fromEntries(counts)).toEqual({ deliveries: 8, webhooks: 2 });
    expect(await purges.table.pending()).toEqual([]);

    expect(await rowsOf(kept)).toEqual({ webhooks: 2, deliveries: 4, attempts: 4 });
    expect(await jobsLeft(other)).toBe(2);
  });
});
