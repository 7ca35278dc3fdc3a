import { createServer, type Server } from 'node:http';
import { type HealthCheck, runHealthChecks } from './health-check';
import { metricsContentType, metricsText } from './metrics/metrics.registry';

// The operator's side door of every app, on its own port that is never exposed
// publicly: /health/live (the process runs) and /health/ready (its dependencies
// answer), for Kubernetes probes and for the test harness, and /metrics
// (Prometheus text format) for the region's Prometheus.
export class OpsServer {
  private server?: Server;
  private started = false;
  private shuttingDown = false;

  constructor(private checks: readonly HealthCheck[]) {}

  // For apps whose dependencies exist only after the server had to be live.
  setChecks(checks: readonly HealthCheck[]): void {
    this.checks = checks;
  }

  async listen(host: string, port: number): Promise<number> {
    this.server = createServer((request, response) => {
      void this.answer(request.url ?? '/')
        .catch((error: unknown) => ({ status: 500, body: { status: 'error', error: String(error) } }))
        .then(({ status, body, contentType }: { status: number; body: unknown; contentType?: string }) => {
          // Which process answered: a supervisor (or a test harness) can tell its
          // own app from another that holds the port it was given.
          response.writeHead(status, {
            'content-type': contentType ?? 'application/json',
            'x-process-id': String(process.pid),
          });
          response.end(typeof body === 'string' ? body : JSON.stringify(body));
        });
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(port, host, resolve);
    });
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  // Until the app has started, it is live but not ready.
  markStarted(): void {
    this.started = true;
  }

  // Readiness turns false first, so load balancers stop sending work before the app stops.
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async answer(url: string): Promise<{ status: number; body: unknown; contentType?: string }> {
    const path = url.split('?')[0];
    if (path === '/health/live') return { status: 200, body: { status: 'ok' } };
    if (path === '/metrics')
      return { status: 200, body: await metricsText(), contentType: metricsContentType() };
    if (path === '/health/ready') {
      if (!this.started) return { status: 503, body: { status: 'starting', checks: {} } };
      if (this.shuttingDown) return { status: 503, body: { status: 'shutting_down', checks: {} } };
      const report = await runHealthChecks(this.checks);
      return { status: report.status === 'unavailable' ? 503 : 200, body: report };
    }
    return { status: 404, body: { code: 'NOT_FOUND', description: `No such endpoint: ${path}` } };
  }
}
