import { randomUUID } from 'node:crypto';
import { Streams } from '@formline/contracts';
import { callApi, eventuallyStreamEvents, useTestRegions } from '@formline/testing';

// The outbox: a submission's event reaches JetStream once its response is
// stored, whatever happens to NATS in between. The relay's own cases (re-publish
// after a crash, rows it cannot publish, retention) are its integration spec's
// (apps/responses/src/outbox/outbox-relay.job.int-spec.ts).
describe('submission events through the outbox', () => {
  const fixture = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses'],
    privateNats: true,
    accounts: { account: 'us' },
  });
  const { regions, nats, accounts } = fixture;
  const responsesDb = fixture.responsesDb.us;
  const { account } = accounts;
  let formId: string;

  beforeAll(async () => {
    formId = (
      await callApi(`${regions.baseUrl('us')}/forms`, {
        token: account.token,
        method: 'POST',
        body: { title: 'Outbox', fields: [{ ref: 'n', title: 'N', type: 'number' }] },
      })
    ).body.id;
  });

  const eventsOfForm = async (done: (count: number) => boolean) =>
    (
      await eventuallyStreamEvents(nats.url, Streams.responses.name, (events) =>
        done(events.filter((e) => e.data.form_response?.form_id === formId).length),
      )
    ).filter((e) => e.data.form_response?.form_id === formId);

  it("hands the submission's request id on to its event, as the message's X-Request-Id header", async () => {
    const requestId = `outbox-${randomUUID()}`;
    // A form of its own: the outage test below counts the responses of `formId`.
    const ownForm = (
      await callApi(`${regions.baseUrl('us')}/forms`, {
        token: account.token,
        method: 'POST',
        body: { title: 'Request ids', fields: [{ ref: 'n', title: 'N', type: 'number' }] },
      })
    ).body.id;
    const response = await callApi(`${regions.baseUrl('us')}/forms/${ownForm}/submissions`, {
      method: 'POST',
      headers: { 'x-request-id': requestId },
      body: { answers: [{ field: { ref: 'n' }, type: 'number', number: 1 }] },
    });
    expect(response.status).toBe(201);
    expect(
      (await responsesDb.response.findUniqueOrThrow({ where: { id: response.body.token } })).requestId,
    ).toBe(requestId);
    const events = await eventuallyStreamEvents(nats.url, Streams.responses.name, (all) =>
      all.some((e) => e.data.form_response?.token === response.body.token),
    );
    const event = events.find((e) => e.data.form_response?.token === response.body.token);
    expect(event?.requestId).toBe(requestId);
  });

  it('loses no submission when NATS stops during submissions and comes back', async () => {
    const total = 30;
    const accepted: string[] = [];
    let outageSeen = 0;
    for (let n = 0; n < total; n++) {
      if (n === 10) {
        await nats.stop();
        setTimeout(() => void nats.start(), 1500);
      }
      // A client that retries with the same Idempotency-Key until the submission is accepted.
      for (let attempt = 0; attempt < 100; attempt++) {
        const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
          method: 'POST',
          headers: { 'idempotency-key': `outage-${n}` },
          body: { answers: [{ field: { ref: 'n' }, type: 'number', number: n }] },
        });
        if (response.status === 201 || response.status === 200) {
          accepted.push(response.body.token);
          break;
        }
        expect(response.status).toBe(503);
        outageSeen += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(outageSeen).toBeGreaterThan(0);
    expect(new Set(accepted).size).toBe(total);
    expect(await responsesDb.response.count({ where: { formId } })).toBe(total);

    const events = await eventsOfForm((count) => count >= total);
    expect(events.map((event) => event.data.form_response.token).sort()).toEqual([...accepted].sort());
    expect(new Set(events.map((event) => event.messageId)).size).toBe(total);
  });
});
