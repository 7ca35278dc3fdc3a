import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { parseConfig } from '@formline/config';
import { type ResponseSubmittedEvent, Streams, Subjects } from '@formline/contracts';
import type { WebhooksPrismaClient } from '@formline/db';
import { eventually, scratchWebhooksDatabase, type ScratchDatabase, testInfra } from '@formline/testing';
import {
  DeliveryQueue,
  DeliveryRepository,
  DeliveryStatus,
  firstAttemptsJobName,
  planStatementChars,
  SendFailureKind,
} from '@formline/webhook-delivery';
import { Redis } from 'ioredis';
import { DeliveryPlanner } from '../delivery/delivery.planner';
import { DeliveryRetentionJob } from '../delivery/delivery-retention.job';
import { webhooksConfigSchema } from '@formline/app-config';
import { WebhookRepository } from '../webhook/webhook.repository';
import { eventBatchBytes, SubmissionConsumer, submissionConsumerName } from './submission.consumer';

// The webhooks service's intake, in-process: submission events on the test
// profile's JetStream, read by the durable consumer, planned into delivery
// rows (a database of the spec's own) and jobs (a Redis database of the
// integration tier's own). Other specs' events on the shared stream reach
// this consumer too: they name forms without webhooks here, so plan nothing.
// Like the e2e specs it shares the durable consumer with, it runs in band
// (npm test does): a webhooks app running meanwhile would take its events.
describe('submission events into deliveries', () => {
  const infra = testInfra();
  let database: ScratchDatabase<WebhooksPrismaClient>;
  let redis: Redis;
  let queue: DeliveryQueue;
  // The first-attempts job that carries a delivery (no dispatcher runs them here).
  const firstAttemptsJobOf = async (deliveryId: string) =>
    (await queue.firstAttempts.getJobs(['waiting', 'delayed', 'active', 'completed'])).find((job) =>
      job.data.deliveries.some((item) => item.deliveryId === deliveryId),
    );
  let deliveries: DeliveryRepository;
  let nats: NatsConnection;
  let consumer: SubmissionConsumer;
  let planner: DeliveryPlanner;
  const config = () =>
    parseConfig(webhooksConfigSchema, {
      REGION: 'us',
      BASE_URL: 'http://127.0.0.1:1',
      EU_BASE_URL: 'http://127.0.0.1:2',
      OPS_PORT: '0',
      NATS_URL: infra.natsUrl.us,
      REDIS_URL: infra.integrationRedisUrl.us,
      WEBHOOKS_DATABASE_URL: database.url,
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      RETENTION_INTERVAL_MS: '100',
    });

  beforeAll(async () => {
    database = await scratchWebhooksDatabase();
    redis = new Redis(infra.integrationRedisUrl.us, { maxRetriesPerRequest: null });
    queue = new DeliveryQueue(redis);
    await queue.queue.obliterate({ force: true });
    deliveries = new DeliveryRepository(database.client);
    nats = await connect({ servers: infra.natsUrl.us });
    planner = new DeliveryPlanner(new WebhookRepository(database.client), deliveries, queue);
    consumer = new SubmissionConsumer(nats, config(), planner);
    await consumer.onApplicationBootstrap();
  });

  afterAll(async () => {
    await consumer?.onApplicationShutdown();
    await nats?.close();
    await queue?.queue.obliterate({ force: true });
    await queue?.close();
    redis?.disconnect();
    await database?.dispose();
  });

  let forms = 0;
  const newForm = () => `form-${++forms}-${randomUUID().slice(0, 8)}`;
  const addWebhook = async (
    formId: string,
    tag: string,
    settings: { enabled: boolean; eventTypes?: object },
  ) =>
    (
      await database.client.webhook.create({
        data: {
          id: `${formId}-${tag}`,
          formId,
          accountId: 'account',
          tag,
          url: `http://127.0.0.1:9/${tag}`,
          enabled: settings.enabled,
          eventTypes: settings.eventTypes ?? { form_response: true },
        },
      })
    ).id;
  const event = (formId: string, eventType: ResponseSubmittedEvent['event_type'] = 'form_response') => {
    const token = randomUUID().replaceAll('-', '');
    return {
      event_id: randomUUID(),
      event_type: eventType,
      form_response: {
        form_id: formId,
        token,
        landed_at: '2026-01-01T00:00:00Z',
        submitted_at: '2026-01-01T00:00:00Z',
      },
      account_id: 'account',
    } satisfies ResponseSubmittedEvent;
  };
  // As the outbox relay publishes: the event id is the message id, unless a test says otherwise.
  const publish = async (payload: unknown, messageId = (payload as { event_id?: string }).event_id) => {
    await jetstream(nats).publish(Subjects.responsesResponseSubmitted, JSON.stringify(payload), {
      msgID: messageId,
    });
  };
  // `count` events of about 950 kB each.
  const largeEvents = (formId: string, count: number) =>
    Array.from({ length: count }, () => ({
      ...event(formId),
      form_response: { ...event(formId).form_response, hidden: { filler: 'x'.repeat(950_000) } },
    }));
  // Published while no consumer reads: the consumer that starts then finds
  // them all waiting, as after an outage. Their stream sequences go to
  // `published`, for the spec to delete them after.
  const publishWhileStopped = async (payloads: ResponseSubmittedEvent[], published: number[]) => {
    await consumer.onApplicationShutdown();
    for (const payload of payloads) {
      const ack = await jetstream(nats).publish(
        Subjects.responsesResponseSubmitted,
        JSON.stringify(payload),
        {
          msgID: payload.event_id,
        },
      );
      published.push(ack.seq);
    }
    consumer = new SubmissionConsumer(nats, config(), planner);
    await consumer.onApplicationBootstrap();
  };
  const rowsOf = (webhookIds: string[]) =>
    database.client.delivery.findMany({ where: { webhookId: { in: webhookIds } }, orderBy: { id: 'asc' } });
  const plannedFor = (eventId: string) =>
    eventually(
      () => database.client.delivery.count({ where: { eventId } }),
      (count) => count > 0,
    );

  it('plans one delivery and one job per event and enabled webhook that wants its kind', async () => {
    const formId = newForm();
    const hooks = {
      all: await addWebhook(formId, 'all', {
        enabled: true,
        eventTypes: { form_response: true, form_response_partial: true },
      }),
      completed: await addWebhook(formId, 'completed', { enabled: true }),
      off: await addWebhook(formId, 'off', { enabled: false }),
      partials: await addWebhook(formId, 'partials', {
        enabled: true,
        eventTypes: { form_response_partial: true },
      }),
      elsewhere: await addWebhook(newForm(), 'elsewhere', { enabled: true }),
    };
    const completed = event(formId);
    const partial = event(formId, 'form_response_partial');
    await publish(completed);
    await publish(partial);

    // Both events' webhooks are read and their rows written in one step per
    // batch: once the rows are there, no other webhook gets one later.
    await plannedFor(completed.event_id);
    await plannedFor(partial.event_id);
    const rows = await rowsOf(Object.values(hooks));
    const pairs = rows.map((row) => `${row.webhookId.replace(`${formId}-`, '')} ${row.eventId}`).sort();
    expect(pairs).toEqual(
      [
        `all ${completed.event_id}`,
        `all ${partial.event_id}`,
        `completed ${completed.event_id}`,
        `partials ${partial.event_id}`,
      ].sort(),
    );
    for (const row of rows) {
      expect(row.status).toBe(DeliveryStatus.pending);
      // The body is Typeform's payload: the routing account id stays behind.
      const { account_id: _account, ...payload } = row.eventId === completed.event_id ? completed : partial;
      expect(JSON.parse(row.body)).toEqual(payload);
      const job = await eventually(
        () => firstAttemptsJobOf(row.id),
        (found) => found !== undefined,
      );
      expect(job?.name).toBe(firstAttemptsJobName);
      expect(job?.data).toEqual({
        deliveries: expect.arrayContaining([
          { deliveryId: row.id, eventId: row.eventId, webhookId: row.webhookId },
        ]),
      });
    }
  });

  it('plans large events in batches within their bytes, and their rows in statements within theirs', async () => {
    const formId = newForm();
    const hooks = [
      await addWebhook(formId, 'one', { enabled: true }),
      await addWebhook(formId, 'two', { enabled: true }),
    ];
    // Sixteen events of about 950 kB: 15.2 MB, less than the consumer holds
    // (twice a batch's bytes), more than one batch holds.
    const large = largeEvents(formId, 16);
    const plan = planner.plan.bind(planner);
    const plans = jest.spyOn(planner, 'plan');
    // The first batch waits until every event has arrived and is held, so
    // the batches after it are cut by their bound, not by what has come.
    const held = () => (consumer as unknown as { held: unknown[] }).held.length;
    plans.mockImplementationOnce(async (events) => {
      await eventually(held, (count) => count >= large.length);
      return plan(events);
    });
    const published: number[] = [];
    const statements = jest.spyOn(
      deliveries as unknown as { planChunk: (items: Array<{ body: string }>) => Promise<unknown> },
      'planChunk',
    );
    try {
      await publishWhileStopped(large, published);
      await eventually(
        () => database.client.delivery.count({ where: { webhookId: { in: hooks } } }),
        (count) => count === 2 * large.length,
      );
      const bytesOf = (texts: string[]) => texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
      const ours = new Set<string>(large.map((payload) => payload.event_id));
      const batches = plans.mock.calls
        .map(([events]) => events.filter(({ event: planned }) => ours.has(planned.event_id)))
        .filter((events) => events.length > 0);
      expect(batches.length).toBeGreaterThan(1);
      for (const events of batches) {
        expect(bytesOf(events.map(({ event: planned }) => JSON.stringify(planned)))).toBeLessThanOrEqual(
          eventBatchBytes,
        );
      }
      for (const [items] of statements.mock.calls) {
        if (items.length > 1)
          expect(bytesOf(items.map((item) => item.body))).toBeLessThanOrEqual(planStatementChars);
      }
      expect(statements.mock.calls.length).toBeGreaterThan(batches.length);
    } finally {
      plans.mockRestore();
      statements.mockRestore();
      // 15 MB the stream need not keep: the specs that read it whole stay quick.
      const manager = await jetstreamManager(nats);
      for (const seq of published) await manager.streams.deleteMessage(Streams.responses.name, seq);
    }
  });

  it('takes from the stream no more than it holds while planning is stalled', async () => {
    const formId = newForm();
    const hook = await addWebhook(formId, 'one', { enabled: true });
    // Forty events of about 950 kB: 38 MB, more than twice what the consumer holds (16 MB).
    const large = largeEvents(formId, 40);
    const plan = planner.plan.bind(planner);
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const plans = jest.spyOn(planner, 'plan').mockImplementation(async (events) => {
      await stalled;
      return plan(events);
    });
    const held = () => (consumer as unknown as { held: unknown[] }).held.length;
    const published: number[] = [];
    const manager = await jetstreamManager(nats);
    try {
      await publishWhileStopped(large, published);
      await eventually(held, (count) => count >= 16);
      // A while for anything more to arrive: what JetStream handed this
      // process is what it holds (and reports as in progress), not the stream.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const info = await manager.consumers.info(Streams.responses.name, submissionConsumerName);
      expect(held()).toBeLessThanOrEqual(Math.ceil((2 * eventBatchBytes) / 950_000) + 1);
      expect(info.num_ack_pending).toBeLessThanOrEqual(held());
      release();
      await eventually(
        () => database.client.delivery.count({ where: { webhookId: hook } }),
        (count) => count === large.length,
      );
    } finally {
      release();
      plans.mockRestore();
      for (const seq of published) await manager.streams.deleteMessage(Streams.responses.name, seq);
    }
  });

  it('adds nothing when an event comes again, even one already delivered', async () => {
    const formId = newForm();
    const hook = await addWebhook(formId, 'once', { enabled: true });
    const submitted = event(formId);
    await publish(submitted);
    await plannedFor(submitted.event_id);
    const [row] = await rowsOf([hook]);
    // Delivered meanwhile.
    await deliveries.succeed(
      row.id,
      (await deliveries.startAttempt(row.id, { once: false, inFlightMs: 1000 }))!.attempt!,
      {
        ok: true,
        statusCode: 200,
        durationMs: 1,
      },
    );
    await queue.firstAttempts.remove((await firstAttemptsJobOf(row.id))!.id!);

    // The same event again (another message id, past JetStream's de-duplication),
    // then a marker behind it: once the marker is planned, so was the repeat.
    await publish(submitted, randomUUID());
    const marker = event(formId);
    await publish(marker);
    await plannedFor(marker.event_id);
    const states = (await rowsOf([hook])).map((found) => `${found.eventId} ${found.status}`);
    expect(states.sort()).toEqual(
      [
        `${submitted.event_id} ${DeliveryStatus.succeeded}`,
        `${marker.event_id} ${DeliveryStatus.pending}`,
      ].sort(),
    );
    expect(await firstAttemptsJobOf(row.id)).toBeUndefined();
  });

  it('skips an event it cannot read, and plans those behind it', async () => {
    const formId = newForm();
    const hook = await addWebhook(formId, 'after-garbage', { enabled: true });
    // Not an event (no id, no token), though shaped enough for other specs
    // that read the whole shared stream.
    await publish({ event_type: 'form_response', form_response: { form_id: formId } }, randomUUID());
    const behind = event(formId);
    await publish(behind);
    expect(await plannedFor(behind.event_id)).toBe(1);
    expect(await database.client.delivery.count({ where: { webhookId: hook } })).toBe(1);
  });

  it('prunes finished deliveries after DELIVERY_RETENTION_MS, with their attempts, never pending ones', async () => {
    const hook = await addWebhook(newForm(), 'retention', { enabled: true });
    const planned = await deliveries.plan(
      ['e-old-finished', 'e-old-pending'].map((eventId) => ({ eventId, webhookId: hook, body: '{}' })),
    );
    const finished = planned.find((delivery) => delivery.eventId === 'e-old-finished')!;
    const pending = planned.find((delivery) => delivery.eventId === 'e-old-pending')!;
    const attempt = (await deliveries.startAttempt(finished.id, { once: false, inFlightMs: 1000 }))!.attempt!;
    await deliveries.giveUp(
      finished.id,
      attempt,
      {
        ok: false,
        kind: SendFailureKind.http_status,
        statusCode: 500,
        message: 'HTTP 500',
        durationMs: 1,
        retryAfterMs: null,
      },
      null,
    );
    // As if last changed 40 days ago (the default keeps them 30 days).
    await database.client.$executeRaw`UPDATE deliveries SET updated_at = updated_at - interval '40 days'
      WHERE id = ANY(${[finished.id, pending.id]}::text[])`;

    const retention = new DeliveryRetentionJob(deliveries, config());
    retention.onApplicationBootstrap();
    try {
      const left = await eventually(
        () => rowsOf([hook]),
        (rows) => rows.length === 1,
      );
      expect(left.map((row) => row.id)).toEqual([pending.id]);
      expect(await database.client.deliveryAttempt.count({ where: { deliveryId: finished.id } })).toBe(0);
    } finally {
      await retention.onApplicationShutdown();
    }
  });
});
