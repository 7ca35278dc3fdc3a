import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when the body is not JSON). */
  body: any;
  /** Milliseconds from the socket's opening to the answer's last byte. */
  afterMs: number;
}

export interface RawRequest {
  method: string;
  /** The path and query, from `/`. */
  path: string;
  headers?: Record<string, string>;
  /** What is sent after the headers: all of the body, or only its start. */
  body?: Buffer | string;
  /** The Content-Length declared; the body's own length when not given. */
  declaredLength?: number;
  /** The request's head as sent, when it must be malformed or unfinished (the fields above then only name it). */
  head?: string;
  /** The address the socket is bound to on this side (e.g. another 127.x.y.z, to speak as another client). */
  localAddress?: string;
}

// One HTTP/1.1 exchange over a socket of its own, written by hand, for what
// fetch cannot do: a client that is slow or early on purpose (headers or a
// body held back, a declared length never sent), and a request whose answer
// comes before its body is sent. A server may refuse a request before reading
// its body (too large, not allowed) and close the socket while the client is
// still writing; the write then fails (EPIPE, ECONNRESET), and fetch loses the
// answer with it. Here writing stops at the answer's first byte, a failed
// write is not a failed exchange, and the answer is kept.
export class RawExchange {
  /** The answer, once complete; undefined if the server closed without one. */
  readonly answer: Promise<RawAnswer | undefined>;
  /** Milliseconds from the opening to the socket's close (by either side). */
  readonly closed: Promise<number>;
  private readonly socket: Socket;
  private readonly startedAt = Date.now();
  private received = Buffer.alloc(0);
  private answered = false;

  constructor(baseUrl: string, request: RawRequest) {
    const url = new URL(baseUrl);
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const length = request.declaredLength ?? body?.length;
    const headers: Record<string, string> = { host: url.host, ...request.headers };
    if (length !== undefined) headers['content-length'] = String(length);
    const head =
      request.head ??
      `${request.method} ${request.path} HTTP/1.1\r\n` +
        Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        '\r\n';
    this.socket = connect({ port: Number(url.port), host: url.hostname, localAddress: request.localAddress });
    let resolveAnswer: (answer: RawAnswer | undefined) => void = () => undefined;
    this.answer = new Promise((resolve) => (resolveAnswer = resolve));
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve(this.elapsed())));
    // A write that fails because the server answered and closed is expected.
    this.socket.on('error', () => undefined);
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      const answer = this.parse();
      if (answer && !this.answered) {
        this.answered = true;
        resolveAnswer(answer);
      }
    });
    this.socket.on('close', () => resolveAnswer(this.parse(true)));
    this.socket.once('connect', () => void this.send(head, body));
  }

  /** Sends more of the body (for a client that trickles it). */
  write(bytes: Buffer | string): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  close(): void {
    this.socket.destroy();
  }

  private async send(head: string, body: Buffer | undefined): Promise<void> {
    this.socket.write(head);
    if (!body) return;
    // In slices, stopping once the server has begun to answer.
    for (let offset = 0; offset < body.length; offset += 64 * 1024) {
      if (this.received.length > 0 || this.socket.destroyed) return;
      if (!this.socket.write(body.subarray(offset, offset + 64 * 1024))) {
        await new Promise<void>((resolve) => {
          const done = () => {
            this.socket.off('drain', done);
            this.socket.off('close', done);
            this.socket.off('data', done);
            resolve();
          };
          this.socket.on('drain', done);
          this.socket.on('close', done);
          this.socket.on('data', done);
        });
      }
    }
  }

  private elapsed(): number {
    return Date.now() - this.startedAt;
  }

  // The answer in what was received, once it is complete (or, when the socket
  // has closed, whatever of it arrived).
  private parse(atClose = false): RawAnswer | undefined {
    const end = this.received.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const lines = this.received.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(lines[0].split(' ')[1]);
    const headers = new Headers();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    const rest = this.received.subarray(end + 4);
    let bytes: Buffer | undefined;
    if (headers.get('transfer-encoding')?.includes('chunked')) bytes = dechunk(rest);
    else if (headers.has('content-length')) {
      const length = Number(headers.get('content-length'));
      if (rest.length >= length) bytes = rest.subarray(0, length);
    } else if (atClose) bytes = rest;
    if (bytes === undefined) {
      if (!atClose) return undefined;
      bytes = rest;
    }
    const text = bytes.toString('utf8');
    return { status, headers, text, body: parseJson(text), afterMs: this.elapsed() };
  }
}

/** Opens an exchange (see RawExchange); the caller closes it. */
export function rawRequest(baseUrl: string, request: RawRequest): RawExchange {
  return new RawExchange(baseUrl, request);
}

/**
 * Sends a whole request and reads its answer, early or not, then closes the
 * socket: for a body the server may refuse before reading it.
 */
export async function sendReadingEarlyAnswer(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  // Keep-alive, not `Connection: close`: a server that answers early then
  // discards the rest of the body as it comes, where one told to close would
  // close under the client still writing, and the reset loses the answer.
  const exchange = rawRequest(baseUrl, request);
  const answer = await exchange.answer;
  exchange.close();
  if (!answer) throw new Error(`${request.method} ${request.path}: the server closed without an answer`);
  return answer;
}

// Larger bodies may still be being written when the server answers (the
// kernel takes about this much in one write).
const earlyAnswerBytes = 64 * 1024;

/**
 * fetch, except that a request whose body the server may refuse before
 * reading it (anything over 64 KiB) is sent over a raw socket that keeps the
 * early answer (see RawExchange). For every test that sends a large body.
 */
export async function fetchReadingEarlyAnswer(
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string> | Headers;
    body?: string | Buffer;
    signal?: AbortSignal;
  } = {},
): Promise<Response> {
  const { body } = init;
  if (body === undefined || Buffer.byteLength(body) <= earlyAnswerBytes) return fetch(url, init);
  const target = new URL(url);
  const exchange = rawRequest(target.origin, {
    method: init.method ?? 'GET',
    path: `${target.pathname}${target.search}`,
    // Keep-alive, as above.
    headers: Object.fromEntries(new Headers(init.headers).entries()),
    body,
  });
  init.signal?.addEventListener('abort', () => exchange.close());
  const answer = await exchange.answer;
  exchange.close();
  if (!answer)
    throw new Error(`${init.method ?? 'GET'} ${url.slice(0, 200)}: the server closed without an answer`);
  const empty = answer.status === 204 || answer.status === 304;
  return new Response(empty ? null : answer.text, { status: answer.status, headers: answer.headers });
}

// A chunked body, once its last chunk has arrived.
function dechunk(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd < 0) return undefined;
    const size = parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (bytes.length < start + size + 2) return undefined;
    parts.push(bytes.subarray(start, start + size));
    offset = start + size + 2;
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
