import { metricsRegistry } from '@formline/ops';
import { Counter, Gauge } from 'prom-client';

// The media app's image work on its /metrics: variants rendered (each should be
// rendered once, then read from the store), jobs refused because the render
// pool was full, and the pool's jobs running and waiting now.
const rendersTotal = new Counter({
  name: 'formline_image_renders_total',
  help: 'Sized image variants this media process rendered (a variant already in the store is not rendered again).',
  registers: [],
});

const refusedTotal = new Counter({
  name: 'formline_image_work_refused_total',
  help: 'Image jobs (renders, uploads) refused with 503 because the render pool was full.',
  registers: [],
});

export function recordImageRender(): void {
  rendersTotal.inc();
}

export function recordImageWorkRefused(): void {
  refusedTotal.inc();
}

// Once per process, with the pool whose jobs the gauges read at each scrape
// (the render pool; its shape only, as the pool records its refusals here).
export function exposeImageWorkMetrics(pool: { stats(): { running: number; waiting: number } }): void {
  if (metricsRegistry.getSingleMetric('formline_image_renders_total')) return;
  metricsRegistry.registerMetric(rendersTotal);
  metricsRegistry.registerMetric(refusedTotal);
  metricsRegistry.registerMetric(
    new Gauge({
      name: 'formline_image_work_jobs',
      help: 'Image jobs in the render pool now, by state (running, waiting).',
      labelNames: ['state'] as const,
      registers: [],
      collect() {
        const { running, waiting } = pool.stats();
        this.set({ state: 'running' }, running);
        this.set({ state: 'waiting' }, waiting);
      },
    }),
  );
}
