import { collectDefaultMetrics, Registry } from 'prom-client';

// The process's one Prometheus registry, served on the ops port at /metrics.
// Our own series are named `formline_*`; the process and Node.js series keep
// the standard names (`process_resident_memory_bytes`,
// `nodejs_eventloop_lag_p99_seconds`) so stock dashboards read them. Every
// series carries `app` and `region`.
export const metricsRegistry = new Registry();

let started = false;

// Once per process, at boot: memory, CPU, handles, GC and event-loop delay.
export function startProcessMetrics(labels: { app: string; region: string }): void {
  if (started) return;
  started = true;
  metricsRegistry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: metricsRegistry });
}

export function metricsContentType(): string {
  return metricsRegistry.contentType;
}

export function metricsText(): Promise<string> {
  return metricsRegistry.metrics();
}
