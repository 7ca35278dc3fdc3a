import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

// HTTP from a chosen loopback address. The gateway counts anonymous budgets
// and failed authentications per client address (the socket's, as no proxy
// is trusted by default), and every 127.x.y.z is this machine's: binding the
// client side to one of them lets each caller of the check be a client of its
// own, while every request still goes to 127.0.0.1.

export interface LoopbackAnswer {
  /** 0 when no answer came (refused connection, reset, timeout). */
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** From the request's start to the answer's last byte. */
  ms: number;
  /** Why there was no answer. */
  error?: string;
}

export interface LoopbackRequest {
  method: string;
  path: string;
  /** The client address (127.x.y.z) the socket is bound to. */
  from: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Keep-alive sockets shared by a client's requests; none: a socket of its own. */
  agent?: Agent;
  timeoutMs?: number;
}

export function sendFrom(base: URL, request: LoopbackRequest): Promise<LoopbackAnswer> {
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  return new Promise((resolve) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const outgoing = httpRequest(
      {
        host: base.hostname,
        port: Number(base.port),
        method: request.method,
        path: request.path,
        localAddress: request.from,
        agent: request.agent ?? false,
        headers: { ...request.headers, ...(body && { 'content-length': String(body.length) }) },
        timeout: request.timeoutMs ?? 10_000,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({
            status: answer.statusCode ?? 0,
            headers: answer.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: elapsed(),
          }),
        );
        answer.on('error', (error) =>
          resolve({ status: 0, headers: {}, text: '', ms: elapsed(), error: error.message }),
        );
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer in time')));
    outgoing.on('error', (error) =>
      resolve({ status: 0, headers: {}, text: '', ms: elapsed(), error: error.message }),
    );
    outgoing.end(body);
  });
}

/** A keep-alive client: its requests share a few sockets, as a browser's or an SDK's do. */
export function keepAliveAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 8 });
}

/**
 * 127.{block}.{net}.{host}: a block per kind of caller, a random net each time
 * (the region keeps budgets spent by an earlier run or round for their
 * window), hosts 1-254.
 */
export class LoopbackAddresses {
  private readonly net = Math.floor(Math.random() * 256);

  constructor(private readonly block: number) {}

  at(index: number): string {
    return `127.${this.block}.${this.net}.${(index % 254) + 1}`;
  }
}
