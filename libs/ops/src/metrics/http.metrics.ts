import type { Metric } from 'prom-client';
import { metricsRegistry } from './metrics.registry';

// The gateway's traffic per route: rate, status and latency. `route` is the
// route's pattern (`/forms/:form_id`), never the raw path, so ids do not make
// a series each; a path no route matches counts as `unmatched`.
//
// Counted here and handed to the registry as prom-client's own Counter and
// Histogram would (same names, series and text), because every HTTP request
// passes here: prom-client hashes a label object per call, for the counter
// and again for the histogram. Here a request finds its series through three
// map lookups, with nothing allocated once the series exists.
const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// As prom-client's histogram hands its values over: the series' labels
// shared, `le` on its own (which puts the default labels between them).
interface Value {
  labels: Record<string, string | number>;
  sharedLabels?: Series['labels'];
  value: number;
  metricName?: string;
}

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last is above every bound. */
  inBucket: number[];
}

let byMethod = new Map<string, Map<string, Map<number, Series>>>();
// In the order they first appeared, as prom-client lists them.
let allSeries: Series[] = [];

export function observeHttpRequest(
  request: { method: string; route: string | undefined; status: number },
  seconds: number,
): void {
  if (!Number.isFinite(seconds)) return;
  const route = request.route ?? 'unmatched';
  let byRoute = byMethod.get(request.method);
  if (!byRoute) byMethod.set(request.method, (byRoute = new Map<string, Map<number, Series>>()));
  let byStatus = byRoute.get(route);
  if (!byStatus) byRoute.set(route, (byStatus = new Map<number, Series>()));
  let series = byStatus.get(request.status);
  if (!series) {
    series = {
      labels: { method: request.method, route, status: String(request.status) },
      count: 0,
      sum: 0,
      inBucket: new Array<number>(buckets.length + 1).fill(0),
    };
    byStatus.set(request.status, series);
    allSeries.push(series);
  }
  series.count += 1;
  series.sum += seconds;
  let bucket = 0;
  while (bucket < buckets.length && seconds > buckets[bucket]) bucket += 1;
  series.inBucket[bucket] += 1;
}

// What the registry asks of a metric: its name, help and type, and its values.
function registered(name: string, help: string, type: 'counter' | 'histogram', values: () => Value[]) {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: () => Promise.resolve({ name, help, type, aggregator: 'sum', values: values() }),
    // The registry's resetMetrics(): both metrics share their series.
    reset: () => {
      byMethod = new Map();
      allSeries = [];
    },
  };
  metricsRegistry.registerMetric(metric as unknown as Metric);
  return metric;
}

const bucketName = 'formline_http_request_duration_seconds_bucket';

export const httpRequestsTotal = registered(
  'formline_http_requests_total',
  'HTTP requests answered, by method, route and status.',
  'counter',
  () => allSeries.map((series) => ({ labels: series.labels, value: series.count })),
);

export const httpRequestDuration = registered(
  'formline_http_request_duration_seconds',
  'Time from receiving an HTTP request to answering it, by method, route and status.',
  'histogram',
  () =>
    allSeries.flatMap((series) => {
      const values: Value[] = [];
      let cumulative = 0;
      buckets.forEach((bound, i) => {
        cumulative += series.inBucket[i];
        values.push({
          labels: { le: bound },
          sharedLabels: series.labels,
          value: cumulative,
          metricName: bucketName,
        });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: bucketName },
        {
          labels: {},
          sharedLabels: series.labels,
          value: series.sum,
          metricName: 'formline_http_request_duration_seconds_sum',
        },
        {
          labels: {},
          sharedLabels: series.labels,
          value: series.count,
          metricName: 'formline_http_request_duration_seconds_count',
        },
      );
      return values;
    }),
);
