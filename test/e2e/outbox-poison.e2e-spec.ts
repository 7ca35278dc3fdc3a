import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Streams, Subjects } from '@formline/contracts';
import { createResponsesDatabase } from '@formline/db';
import {
  callApi,
  createTestAccount,
  databaseUrl,
  eventually,
  eventuallyStreamEvents,
  freePort,
  sampleValue,
  scrapeMetrics,
  startTestRegions,
  testGlobalDatabase,
  testInfra,
  TestNatsServer,
  type TestAccount,
  type TestRegions,
} from '@formline/testing';

// Rows the relay cannot publish never hold the others back: they count
// attempts of their own, are set aside after OUTBOX_MAX_ATTEMPTS with a log
// line and a metric, while NATS being away counts against no row; the backlog
// and the age of its oldest row are measured; published rows are pruned.
describe('outbox relay with rows it cannot publish', () => {
  const db = testGlobalDatabase();
  const responsesDb = createResponsesDatabase(databaseUrl(testInfra(), 'formline_responses_us'));
  let nats: TestNatsServer;
  let regions: TestRegions;
  let account: TestAccount;
  let formId: string;

  beforeAll(async () => {
    nats = new TestNatsServer(await freePort(), path.join(testInfra().dataDir, `poison-nats-${Date.now()}`));
    await nats.start();
    account = await createTestAccount(db, 'us');
    regions = await startTestRegions({
      name: 'outbox-poison',
      regions: ['us'],
      apps: ['gateway', 'forms', 'responses'],
      natsUrl: { us: nats.url },
      extraEnv: { OUTBOX_POLL_INTERVAL_MS: '200', OUTBOX_MAX_ATTEMPTS: '3', RETENTION_INTERVAL_MS: '1000' },
    });
    formId = (
      await callApi(`${regions.baseUrl('us')}/forms`, {
        token: account.token,
        method: 'POST',
        body: { title: 'Poison', fields: [{ ref: 'n', title: 'N', type: 'number' }] },
      })
    ).body.id;
  });

  afterAll(async () => {
    await regions?.stop();
    await nats?.stop();
    await Promise.all([db.$disconnect(), responsesDb.$disconnect()]);
  });

  // A row written as the responses service writes them, but older than any
  // other (first in the relay's order), with a payload of our choosing.
  const insertRow = async (id: string, subject: string, payloadText: string) =>
    responsesDb.$executeRawUnsafe(
      `INSERT INTO outbox_events (id, subject, payload, created_at)
       VALUES ($1, $2, $3::json, (now() AT TIME ZONE 'UTC') - interval '1 minute')`,
      id,
      subject,
      payloadText,
    );
  const event = (id: string, token: string) =>
    `{"event_id":"${id}","event_type":"form_response","account_id":"${account.accountId}","form_response":{"form_id":"poison","token":"${token}"}}`;
  const metric = async (name: string) =>
    sampleValue((await scrapeMetrics(regions.stacks.us!.app('responses').options.opsPort)).samples, name);

  it('publishes the submissions behind rows it cannot publish, and sets those aside', async () => {
    const surrogate = randomUUID(); // PostgreSQL refuses to parse it as JSON (22P02)
    const oversized = randomUUID(); // larger than NATS's max_payload
    const unrouted = randomUUID(); // a subject no stream takes
    await insertRow(surrogate, Subjects.responsesResponseSubmitted, event(surrogate, 'x\\ud800y'));
    await insertRow(
      oversized,
      Subjects.responsesResponseSubmitted,
      event(oversized, 'big').replace('"big"', `"${'b'.repeat(1_200_000)}"`),
    );
    // A subject no stream takes, on purpose.
    // eslint-disable-next-line no-restricted-syntax
    await insertRow(unrouted, 'responses.unknown.v1', event(unrouted, 'lost'));

    const tokens: string[] = [];
    for (let n = 0; n < 5; n++) {
      const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
        method: 'POST',
        body: { answers: [{ field: { ref: 'n' }, type: 'number', number: n }] },
      });
      expect(response.status).toBe(201);
      tokens.push(response.body.token);
    }
    const events = await eventuallyStreamEvents(nats.url, Streams.responses.name, (all) =>
      tokens.every((token) => all.some((e) => e.data.form_response?.token === token)),
    );
    expect(tokens.filter((token) => !events.some((e) => e.data.form_response?.token === token))).toEqual([]);
    // The payload PostgreSQL cannot parse is sent as stored, byte for byte.
    expect(events.find((e) => e.messageId === surrogate)?.data.form_response.token).toBe('x\ud800y');

    const rows = await eventually(
      () => responsesDb.outboxEvent.findMany({ where: { id: { in: [oversized, unrouted] } } }),
      (all) => all.length === 2 && all.every((row) => row.deadLetteredAt !== null),
    );
    for (const row of rows) expect(row).toMatchObject({ attempts: 3, publishedAt: null });
    expect(rows.find((row) => row.id === oversized)?.lastError).toMatch(/max_payload/);
    expect(events.some((e) => e.messageId === oversized || e.messageId === unrouted)).toBe(false);

    expect(
      await eventually(
        () => metric('formline_outbox_dead_letters'),
        (value) => value === 2,
      ),
    ).toBe(2);
    expect(await metric('formline_outbox_dead_lettered_total')).toBe(2);
    const log = readFileSync(regions.logFile('us', 'responses'), 'utf8');
    expect(log).toContain(`outbox event ${oversized} (responses.response.submitted.v1) set aside after 3`);
    expect(log).toContain(`outbox event ${unrouted} (responses.unknown.v1) set aside after 3`);
  });

  it('counts no attempt while NATS is away, and measures the backlog and its age meanwhile', async () => {
    await nats.stop();
    const waiting = randomUUID();
    await insertRow(waiting, Subjects.responsesResponseSubmitted, event(waiting, 'waiting'));
    expect(
      await eventually(
        () => metric('formline_outbox_backlog'),
        (value) => value >= 1,
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(await metric('formline_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(60);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await nats.start();
    const row = await eventually(
      () => responsesDb.outboxEvent.findUniqueOrThrow({ where: { id: waiting } }),
      (current) => current.publishedAt !== null,
      20_000,
    );
    expect(row).toMatchObject({ attempts: 0, deadLetteredAt: null });
    expect(
      await eventually(
        () => metric('formline_outbox_backlog'),
        (value) => value === 0,
      ),
    ).toBe(0);
    expect(await metric('formline_outbox_oldest_age_seconds')).toBe(0);
  });

  it('prunes published rows past OUTBOX_RETENTION_MS, and keeps the rows set aside', async () => {
    const old = randomUUID();
    await insertRow(old, Subjects.responsesResponseSubmitted, event(old, 'old'));
    await eventually(
      () => responsesDb.outboxEvent.findUnique({ where: { id: old } }),
      (row) => row?.publishedAt !== null,
    );
    const fresh = await responsesDb.outboxEvent.count({ where: { publishedAt: { not: null } } });
    expect(fresh).toBeGreaterThan(1);
    // As if published two days ago (the default keeps them one day).
    await responsesDb.$executeRaw`UPDATE outbox_events SET published_at = published_at - interval '2 days' WHERE id = ${old}`;
    await eventually(
      () => responsesDb.outboxEvent.findUnique({ where: { id: old } }),
      (row) => row === null,
    );
    expect(await responsesDb.outboxEvent.findUnique({ where: { id: old } })).toBeNull();
    expect(await responsesDb.outboxEvent.count({ where: { publishedAt: { not: null } } })).toBe(fresh - 1);
    expect(await responsesDb.outboxEvent.count({ where: { deadLetteredAt: { not: null } } })).toBe(2);
  });
});
