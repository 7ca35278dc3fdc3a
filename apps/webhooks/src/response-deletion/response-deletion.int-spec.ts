import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { webhooksConfigSchema } from '@formline/app-config';
import { parseConfig } from '@formline/config';
import { type ResponsesDeletedEvent, type ResponseSubmittedEvent, Subjects } from '@formline/contracts';
import type { WebhooksPrismaClient } from '@formline/db';
import { eventually, scratchWebhooksDatabase, type ScratchDatabase, testInfra } from '@formline/testing';
import { DeliveryQueue, DeliveryRepository, deliveryJobId } from '@formline/webhook-delivery';
import { Redis } from 'ioredis';
import { DeliveryPlanner } from '../delivery/delivery.planner';
import { SubmissionConsumer } from '../events/submission.consumer';
import { WebhookRepository } from '../webhook/webhook.repository';
import { ResponseDeletionConsumer } from './response-deletion.consumer';

// Deleted responses in the webhooks service, in-process on the test
// profile's JetStream: the deletion event drops the responses' deliveries
// with their attempts and queued jobs, leaves every other response's, and a
// submission event of a deleted response that comes after it (a consumer
// behind, a redelivery) plans nothing. Runs in band, as the other specs
// sharing these durable consumers do.
describe('deleted responses in the webhooks service', () => {
  const infra = testInfra();
  let database: ScratchDatabase<WebhooksPrismaClient>;
  let redis: Redis;
  let queue: DeliveryQueue;
  let deliveries: DeliveryRepository;
  let nats: NatsConnection;
  let submissions: SubmissionConsumer;
  let deletions: ResponseDeletionConsumer;
  const account = `account-${randomUUID().slice(0, 8)}`;
  const formId = `form-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    database = await scratchWebhooksDatabase();
    redis = new Redis(infra.integrationRedisUrl.us, { maxRetriesPerRequest: null });
    queue = new DeliveryQueue(redis);
    deliveries = new DeliveryRepository(database.client);
    nats = await connect({ servers: infra.natsUrl.us });
    const config = parseConfig(webhooksConfigSchema, {
      REGION: 'us',
      BASE_URL: 'http://127.0.0.1:1',
      EU_BASE_URL: 'http://127.0.0.1:2',
      OPS_PORT: '0',
      NATS_URL: infra.natsUrl.us,
      REDIS_URL: infra.integrationRedisUrl.us,
      WEBHOOKS_DATABASE_URL: database.url,
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    submissions = new SubmissionConsumer(
      nats,
      config,
      new DeliveryPlanner(new WebhookRepository(database.client), deliveries, queue),
    );
    deletions = new ResponseDeletionConsumer(nats, deliveries, queue, config);
    await submissions.onApplicationBootstrap();
    await deletions.onApplicationBootstrap();
    for (const tag of ['a', 'b']) {
      await database.client.webhook.create({
        data: {
          id: `${formId}-${tag}`,
          formId,
          accountId: account,
          tag,
          url: 'http://127.0.0.1:9/',
          enabled: true,
        },
      });
    }
  });

  afterAll(async () => {
    await deletions?.onApplicationShutdown();
    await submissions?.onApplicationShutdown();
    await nats?.close();
    await queue?.close();
    redis?.disconnect();
    await database?.dispose();
  });

  const submitted = (token: string): ResponseSubmittedEvent => ({
    event_id: randomUUID(),
    event_type: 'form_response',
    form_response: {
      form_id: formId,
      token,
      landed_at: '2026-01-01T00:00:00Z',
      submitted_at: '2026-01-01T00:00:00Z',
    },
    account_id: account,
  });
  const publish = (subject: string, event: { event_id: string }) =>
    jetstream(nats).publish(subject, JSON.stringify(event), { msgID: event.event_id });
  const deliveriesOf = (token: string) =>
    database.client.delivery.findMany({ where: { responseToken: token }, include: { attempts: true } });
  const planned = (event: ResponseSubmittedEvent) =>
    eventually(
      () => database.client.delivery.count({ where: { eventId: event.event_id } }),
      (count) => count === 2,
    );

  it('drops the deleted responses’ deliveries, attempts and jobs, and plans none for them afterwards', async () => {
    const [gone, kept] = [randomUUID().replaceAll('-', ''), randomUUID().replaceAll('-', '')];
    const events = [submitted(gone), submitted(kept)];
    for (const event of events) await publish(Subjects.responsesResponseSubmitted, event);
    for (const event of events) await planned(event);
    // One of the deleted response's deliveries was tried once already.
    const [tried] = await deliveriesOf(gone);
    await deliveries.startAttempt(tried.id, { once: false, inFlightMs: 1000 });
    expect((await deliveriesOf(gone)).flatMap((row) => row.attempts)).toHaveLength(1);
    // The event's deliveries a queued job will work: in a first-attempts
    // job (none runs here), or in a job of their own.
    const jobs = async (event: ResponseSubmittedEvent) => {
      const own = await Promise.all(
        [`${formId}-a`, `${formId}-b`].map((webhookId) =>
          queue.queue.getJob(deliveryJobId.planned(event.event_id, webhookId)),
        ),
      );
      const firstAttempts = (await queue.firstAttempts.getJobs(['waiting', 'delayed', 'completed', 'failed']))
        .flatMap((job) => job.data.deliveries)
        .filter((item) => item.eventId === event.event_id);
      return own.filter(Boolean).length + firstAttempts.length;
    };
    expect(await jobs(events[0])).toBe(2);

    const deletion: ResponsesDeletedEvent = {
      event_id: randomUUID(),
      account_id: account,
      form_id: formId,
      response_tokens: [gone],
      deleted_at: new Date().toISOString(),
    };
    await publish(Subjects.responsesResponsesDeleted, deletion);
    await eventually(
      () => deliveriesOf(gone),
      (rows) => rows.length === 0,
    );
    expect(await database.client.deliveryAttempt.count({ where: { deliveryId: tried.id } })).toBe(0);
    expect(await jobs(events[0])).toBe(0);
    expect(await deliveriesOf(kept)).toHaveLength(2);
    expect(await jobs(events[1])).toBe(2);

    // The deleted response's submission event once more (a consumer that was
    // behind), then a marker: once the marker is planned, so was the repeat.
    await publish(Subjects.responsesResponseSubmitted, { ...events[0], event_id: randomUUID() });
    const marker = submitted(randomUUID().replaceAll('-', ''));
    await publish(Subjects.responsesResponseSubmitted, marker);
    await planned(marker);
    expect(await deliveriesOf(gone)).toEqual([]);

    // Kept until no event of the response can come any more, then pruned.
    expect(await deliveries.pruneDeletedResponses(new Date(Date.now() - 60_000), 10)).toBe(0);
    expect(
      await deliveries.pruneDeletedResponses(new Date(Date.now() + 60_000), 1000),
    ).toBeGreaterThanOrEqual(1);
    expect(await database.client.deletedResponse.count({ where: { responseToken: gone } })).toBe(0);
  });
});
