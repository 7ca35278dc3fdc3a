import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './metrics.registry';

// The gateway's traffic per route: rate, status and latency. `route` is the
// route's pattern (`/forms/:form_id`), never the raw path, so ids do not make
// a series each; a path no route matches counts as `unmatched`.
const labelNames = ['method', 'route', 'status'] as const;

export const httpRequestsTotal = new Counter({
  name: 'formline_http_requests_total',
  help: 'HTTP requests answered, by method, route and status.',
  labelNames,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'formline_http_request_duration_seconds',
  help: 'Time from receiving an HTTP request to answering it, by method, route and status.',
  labelNames,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export function observeHttpRequest(
  request: { method: string; route: string | undefined; status: number },
  seconds: number,
): void {
  const labels = {
    method: request.method,
    route: request.route ?? 'unmatched',
    status: String(request.status),
  };
  httpRequestsTotal.inc(labels);
  httpRequestDuration.observe(labels, seconds);
}
