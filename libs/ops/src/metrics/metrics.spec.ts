// The metrics live in process-wide registries: each test loads them afresh,
// so none depends on what another one recorded before it.
async function freshMetrics() {
  jest.resetModules();
  const [registry, http, pipeline] = await Promise.all([
    import('./metrics.registry.js'),
    import('./http.metrics.js'),
    import('./pipeline.metrics.js'),
  ]);
  return { ...registry, ...http, ...pipeline };
}

const sample = (text: string, series: string) =>
  Number(
    text
      .split('\n')
      .find((line) => line.startsWith(series + ' '))
      ?.split(' ')[1],
  );

describe('metrics', () => {
  it('counts HTTP requests per route pattern, unmatched paths together', async () => {
    const { metricsText, observeHttpRequest } = await freshMetrics();
    observeHttpRequest({ method: 'GET', route: '/forms/:form_id', status: 200 }, 0.02);
    observeHttpRequest({ method: 'GET', route: undefined, status: 404 }, 0.001);
    const text = await metricsText();
    expect(
      sample(text, 'formline_http_requests_total{method="GET",route="/forms/:form_id",status="200"}'),
    ).toBe(1);
    expect(sample(text, 'formline_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(text).toContain(
      'formline_http_request_duration_seconds_bucket{le="0.025",method="GET",route="/forms/:form_id",status="200"} 1',
    );
  });

  it("serves the HTTP series as prom-client's own Counter and Histogram would, default labels included", async () => {
    const { metricsRegistry, metricsText, observeHttpRequest } = await freshMetrics();
    const { Counter, Histogram, Registry } = await import('prom-client');
    const reference = new Registry();
    const labels = { app: 'gateway', region: 'us' };
    metricsRegistry.setDefaultLabels(labels);
    reference.setDefaultLabels(labels);
    const labelNames = ['method', 'route', 'status'];
    const counter = new Counter({
      name: 'formline_http_requests_total',
      help: 'HTTP requests answered, by method, route and status.',
      labelNames,
      registers: [reference],
    });
    const histogram = new Histogram({
      name: 'formline_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to answering it, by method, route and status.',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [reference],
    });
    const requests = [
      { method: 'GET', route: '/forms/:form_id', status: 200, seconds: 0.005 },
      { method: 'GET', route: '/forms/:form_id', status: 200, seconds: 0.0051 },
      { method: 'GET', route: '/forms/:form_id', status: 304, seconds: 0.3 },
      { method: 'POST', route: '/forms', status: 201, seconds: 12 },
      { method: 'GET', route: undefined, status: 404, seconds: 0 },
    ];
    for (const { seconds, ...request } of requests) {
      observeHttpRequest(request, seconds);
      const series = {
        method: request.method,
        route: request.route ?? 'unmatched',
        status: String(request.status),
      };
      counter.inc(series);
      histogram.observe(series, seconds);
    }
    expect(await metricsText()).toContain(await reference.metrics());
  });

  it('serves a pipeline stage only once exposed, at zero, and moves with what the apps record', async () => {
    const {
      metricsText,
      exposePipelineMetrics,
      recordDeliveryAttempt,
      recordDeliveryLatency,
      setOutboxBacklog,
      setQueueDepth,
      setStreamConsumerLag,
    } = await freshMetrics();
    expect(await metricsText()).not.toContain('formline_outbox_backlog');
    exposePipelineMetrics('outbox', 'stream', 'queue', 'delivery');
    exposePipelineMetrics('outbox'); // twice is harmless
    let text = await metricsText();
    expect(sample(text, 'formline_outbox_backlog')).toBe(0);
    expect(sample(text, 'formline_delivery_attempts_total{outcome="delivered"}')).toBe(0);
    expect(sample(text, 'formline_delivery_attempts_total{outcome="timeout"}')).toBe(0);

    setOutboxBacklog(7);
    setStreamConsumerLag('SUBMISSIONS', 'webhooks', 3);
    setQueueDepth('deliveries', { waiting: 4, active: 1 });
    recordDeliveryAttempt('delivered', 0.2);
    recordDeliveryAttempt('http_error', 1.5);
    recordDeliveryLatency(2);
    text = await metricsText();
    expect(sample(text, 'formline_outbox_backlog')).toBe(7);
    expect(sample(text, 'formline_stream_consumer_lag{stream="SUBMISSIONS",consumer="webhooks"}')).toBe(3);
    expect(sample(text, 'formline_queue_depth{queue="deliveries",state="waiting"}')).toBe(4);
    expect(sample(text, 'formline_queue_depth{queue="deliveries",state="delayed"}')).toBe(0);
    expect(sample(text, 'formline_delivery_attempts_total{outcome="delivered"}')).toBe(1);
    expect(sample(text, 'formline_delivery_attempts_total{outcome="http_error"}')).toBe(1);
    expect(sample(text, 'formline_delivery_attempt_duration_seconds_count{outcome="http_error"}')).toBe(1);
    expect(sample(text, 'formline_delivery_latency_seconds_count')).toBe(1);
  });
});
