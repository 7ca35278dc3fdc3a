import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { callApi, sampleValue, scrapeMetrics, useTestRegions, eventually } from '@formline/testing';

// One submission followed end to end: the X-Request-Id it was sent with is in
// the gateway's log, the responses service's log, the dispatcher's log and the
// headers of the webhook delivery; the pipeline's metrics move with it.
describe('a request id from the gateway to the webhook receiver', () => {
  const { regions, receiver, accounts } = useTestRegions({
    regions: ['us'],
    receiver: true,
    // The services' per-request lines, with the request id, are debug.
    extraEnv: { LOG_LEVEL: 'debug' },
    accounts: { account: 'us' },
  });
  const { account } = accounts;

  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    callApi(`${regions.baseUrl('us')}${path}`, { token: account.token, method, body, headers });

  it('carries one request id through every process and onto the delivery', async () => {
    const formId = (
      await api('POST', '/forms', { title: 'Traced', fields: [{ ref: 'q', title: 'Q', type: 'yes_no' }] })
    ).body.id as string;
    const hook = await api('PUT', `/forms/${formId}/webhooks/trace`, {
      url: receiver.url('/trace'),
      enabled: true,
    });
    expect(hook.status).toBe(200);

    const requestId = `trace-${randomUUID()}`;
    const submitted = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
      method: 'POST',
      headers: { 'x-request-id': requestId },
      body: { answers: [{ field: { ref: 'q' }, type: 'boolean', boolean: true }] },
    });
    expect(submitted.status).toBe(201);
    expect(submitted.headers.get('x-request-id')).toBe(requestId);

    const [delivery] = await receiver.until('/trace', (requests) => requests.length >= 1);
    expect(delivery.headers['x-request-id']).toBe(requestId);

    for (const app of ['gateway', 'responses', 'dispatcher'] as const) {
      const file = regions.logFile('us', app);
      // The file appears with the app's first written lines, which wait up to
      // a second in its buffer: until then, it has logged nothing yet.
      const log = await eventually(
        () => (existsSync(file) ? readFileSync(file, 'utf8') : ''),
        (text) => text.includes(requestId),
      );
      expect([app, log.includes(requestId)]).toEqual([app, true]);
    }
  });

  it('moves the pipeline metrics: delivery attempts, latency, queue depth, consumer lag, outbox backlog', async () => {
    const ports = regions.stacks.us!.settings.opsPorts;
    const dispatcher = await eventually(
      () => scrapeMetrics(ports.dispatcher),
      // The latency is observed once the attempt is recorded, a moment after it is counted.
      ({ samples }) =>
        sampleValue(samples, 'formline_delivery_attempts_total', { outcome: 'delivered' }) >= 1 &&
        sampleValue(samples, 'formline_delivery_latency_seconds_count') >= 1,
    );
    expect(
      sampleValue(dispatcher.samples, 'formline_delivery_attempts_total', { outcome: 'delivered' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleValue(dispatcher.samples, 'formline_delivery_latency_seconds_count')).toBeGreaterThanOrEqual(
      1,
    );
    const withDepth = await eventually(
      () => scrapeMetrics(ports.dispatcher),
      ({ text }) => /formline_queue_depth\{[^}]*state="waiting"/.test(text),
      15_000,
    );
    expect(withDepth.text).toMatch(/formline_queue_depth\{[^}]*state="waiting"/);
    const webhooks = await eventually(
      () => scrapeMetrics(ports.webhooks),
      ({ text }) => /formline_stream_consumer_lag\{[^}]*consumer="webhooks-submissions"/.test(text),
      15_000,
    );
    expect(webhooks.text).toMatch(
      /formline_stream_consumer_lag\{[^}]*consumer="webhooks-submissions"[^}]*\} 0/,
    );
    expect((await scrapeMetrics(ports.responses)).text).toMatch(/formline_outbox_backlog(\{[^}]*\})? 0/);
  });
});
