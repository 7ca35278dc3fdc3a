import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

// What the receiver answers to a request: a status, optional headers, and
// optionally a delay (a slow receiver).
export type ReceiverAnswer = (request: ReceivedWebhook) => {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
};

// A real HTTP server on 127.0.0.1 that records every webhook delivery it gets,
// as an integrator's endpoint would receive them. Answers 200 unless told otherwise per path.
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly answers = new Map<string, ReceiverAnswer>();

  private constructor(
    private readonly server: Server,
    private readonly scheme: 'http' | 'https',
  ) {}

  /** With `tls`, an HTTPS receiver (e.g. with a self-signed certificate). */
  static async start(tls?: { key: string; cert: string }): Promise<WebhookReceiver> {
    const handler = (req: IncomingMessage, res: ServerResponse) => receiver.handle(req, res);
    const receiver: WebhookReceiver = new WebhookReceiver(
      tls ? createTlsServer(tls, handler) : createServer(handler),
      tls ? 'https' : 'http',
    );
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      this.received.push(request);
      const answer: ReturnType<ReceiverAnswer> = this.answers.get(request.path)?.(request) ?? { status: 200 };
      const send = () => {
        if (!res.destroyed) res.writeHead(answer.status, answer.headers).end();
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  }

  url(path: string): string {
    return `${this.scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  answer(path: string, answer: ReceiverAnswer): void {
    this.answers.set(path, answer);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  // Waits until `done` holds for the requests received at `path`.
  async until(path: string, done: (requests: ReceivedWebhook[]) => boolean, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.at(path))) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met at ${path} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.at(path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
