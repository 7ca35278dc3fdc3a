import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode, httpStatusByCode } from '@formline/errors';

export interface RequestTimeouts {
  /** Longest wait for a request's headers. */
  headersMs: number;
  /** Longest wait for a whole request, headers and body. */
  requestMs: number;
  /** Longest silence on a socket while a request is received or answered. */
  idleMs: number;
  /** Longest an idle keep-alive socket stays open between requests. */
  keepAliveMs: number;
}

// The time limits as Fastify and Node's HTTP server take them. Node checks the
// headers and request limits on a timer (every 30 s by default, which would
// let a stalled request live up to 30 s past its limit): here it checks four
// times per headers limit, and at least once a second.
export function serverTimeoutOptions(timeouts: RequestTimeouts) {
  const headersMs = Math.min(timeouts.headersMs, timeouts.requestMs);
  return {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersMs / 4))),
    },
  };
}

// A socket silent for longer than the idle limit: an error answer if a
// request on it is being handled and not answered yet, else (an idle
// keep-alive socket, headers still arriving, a response the client stopped
// reading) it is closed. Without a listener Node would only destroy the
// socket, leaving a client whose request was taken with no answer. The
// answer says whose side was slow: 408 while the request's body was still
// awaited from the client, 503 with Retry-After once it had all arrived and
// the server had not answered within the limit (work queued behind others,
// an image render pool at its bound): the client did nothing wrong and may
// retry.
export function answerIdleSockets(server: Server): void {
  server.on('timeout', (socket: Socket) => {
    if (!awaitsItsAnswer(socket)) socket.destroy();
    else if (requestOn(socket)?.complete)
      writeRawError(socket, ErrorCode.ServiceUnavailable, 'The server did not answer in time; retry later.', {
        'Retry-After': '1',
      });
    else writeRawError(socket, ErrorCode.RequestTimeout, 'The request did not arrive in time.');
  });
}

function requestOn(socket: Socket): IncomingMessage | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage?.req;
}

// Whether a request on the socket was taken and its answer has not started:
// only then can an error answer still be written to it.
export function awaitsItsAnswer(socket: Socket): boolean {
  const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return socket.writable && response !== undefined && response !== null && !response.headersSent;
}

// Answers on the socket itself (there is no Fastify reply for it any more, or
// none yet) and closes it.
export function writeRawError(
  socket: Socket,
  code: ErrorCode,
  description: string,
  headers: Record<string, string> = {},
): void {
  const status = httpStatusByCode[code];
  const body = JSON.stringify({ code, description });
  socket.end(
    `HTTP/1.1 ${status} ${statusText[status] ?? 'Bad Request'}\r\n` +
      'Connection: close\r\n' +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

const statusText: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  503: 'Service Unavailable',
};
