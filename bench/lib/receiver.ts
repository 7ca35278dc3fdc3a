import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nowMs } from './stats';

// The webhooks' receiving end: a real HTTP server that checks each delivery's
// Typeform-Signature against the secret, and notes when each response token
// arrived. A delivery with a wrong signature is answered 401 and counted.
// `delayMs` holds each answer back (a slow receiver): a dispatcher's
// deliveries then wait on the network, not on its CPU.
export class BenchReceiver {
  readonly arrivals = new Map<string, number>();
  badSignatures = 0;
  /** Deliveries of a token that had already arrived, since the last reset. */
  duplicates = 0;
  delayMs = 0;
  private server?: Server;

  constructor(private readonly secret: string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const at = nowMs();
        const body = Buffer.concat(chunks);
        const expected = Buffer.from(
          `sha256=${createHmac('sha256', this.secret).update(body).digest('base64')}`,
        );
        const given = Buffer.from(String(req.headers['typeform-signature'] ?? ''));
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          this.badSignatures += 1;
          res.writeHead(401).end();
          return;
        }
        const token = (JSON.parse(body.toString()) as { form_response?: { token?: string } }).form_response
          ?.token;
        if (token && this.arrivals.has(token)) this.duplicates += 1;
        else if (token) this.arrivals.set(token, at);
        // The arrival is noted when it arrives; only the answer waits.
        if (this.delayMs > 0) setTimeout(() => res.writeHead(200).end(), this.delayMs);
        else res.writeHead(200).end();
      });
    });
    // Senders may open many connections at once: let the backlog of connections queue.
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', 1024, resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  reset(): void {
    this.arrivals.clear();
    this.duplicates = 0;
  }

  // Waits until `count` deliveries arrived (or the time is up); the arrival times, sorted.
  async until(count: number, timeoutMs: number): Promise<number[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.arrivals.size < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return [...this.arrivals.values()].sort((a, b) => a - b);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
