import { DomainError, ErrorCode, type ErrorBody, type ErrorDetail } from '@formline/errors';
import {
  findCallerJsonProblem,
  inputLimits,
  isPrototypeKey,
  offsetBeyondDepth,
  textProblem,
} from '@formline/input';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { writeRawError } from './request-timeouts';

// What the gateway refuses before anything recurses into a request or stores
// it: caller JSON is data. A JSON body must be UTF-8, nest at most
// inputLimits.jsonDepth deep (counted over the raw text in one pass, before
// parsing), and hold no prototype key (`__proto__`, `constructor`,
// `prototype`) and no text that PostgreSQL cannot store (NUL, an unpaired
// surrogate, escaped or not); path parameters, query values and headers the
// same. Each refusal is a 400 whose details name where (415 for a charset).

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

// The JSON body parser (Nest's useBodyParser): charset, UTF-8, depth, then JSON.parse.
export function parseJsonBody(request: { headers: { 'content-type'?: string } }, body: Buffer): unknown {
  const charset = charsetOf(request.headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new DomainError(
      ErrorCode.UnsupportedMediaType,
      `A JSON body must be UTF-8; this one says charset=${charset.slice(0, 40)}.`,
    );
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw refused('', 'The request body is not valid UTF-8.');
  }
  if (text.trim() === '') return undefined;
  const offset = offsetBeyondDepth(text, inputLimits.jsonDepth);
  if (offset >= 0) {
    throw refused(
      '',
      `The request body nests deeper than ${inputLimits.jsonDepth} levels (at character ${offset}).`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw refused('', `The request body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
  return parsed;
}

// Runs for every routed request once its body is parsed, whatever the content type.
export function checkRequestInputs(request: FastifyRequest): void {
  const problems: ErrorDetail[] = [];
  for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, string>)) {
    const problem =
      textProblem(value) ?? (value.length > inputLimits.id ? `longer than ${inputLimits.id}` : undefined);
    if (problem) problems.push(detail(name, 'path', `the path parameter ${problem}`));
  }
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (isPrototypeKey(name)) problems.push(detail(name, 'query', `${name} is not a query parameter`));
    for (const item of [value].flat()) {
      const problem = typeof item === 'string' ? textProblem(item) : undefined;
      if (problem) problems.push(detail(name, 'query', `the value ${problem}`));
    }
  }
  // Every request passes here: a plain loop, no array per header.
  const headers = request.headers;
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) problems.push(detail(name, 'header', `the value ${problem}`));
    } else if (Array.isArray(value)) {
      for (const item of value) {
        const problem = textProblem(item);
        if (problem) problems.push(detail(name, 'header', `the value ${problem}`));
      }
    }
  }
  // Raw bytes (a respondent's file) are not JSON to walk.
  if (request.body !== undefined && !Buffer.isBuffer(request.body)) {
    const problem = findCallerJsonProblem(request.body, inputLimits.jsonDepth);
    if (problem) problems.push(detail(problem.field, 'body', problem.description));
  }
  if (problems.length > 0)
    throw new DomainError(ErrorCode.ValidationError, 'The request is not valid.', problems);
}

// Installs the checks on the gateway's Fastify instance (before routes are added).
export function installRequestHygiene(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', (request, _reply, done) => {
    try {
      checkRequestInputs(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}

// Errors Node's HTTP parser raises before Fastify sees a request (headers
// over the limit, malformed HTTP, a request that took too long): answered with
// the error body too. There is no request yet, so no request id.
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // Answered here already: what the client still sends fails the parser again, and is dropped.
  if (lingering.has(socket)) return;
  // Gone, or answered already (a refusal sent before the body arrived, whose
  // body then timed out): nothing more may be written.
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable || answerStarted(socket)) {
    socket.destroy();
    return;
  }
  const [code, description] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [ErrorCode.HeadersTooLarge, `The request headers are larger than the limit.`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [ErrorCode.RequestTimeout, 'The request did not arrive in time.']
        : [ErrorCode.ValidationError, 'The request is not valid HTTP.'];
  writeRawError(socket, code, description);
  lingerThenClose(socket);
}

// Sockets answered by answerClientError, whose client may still be writing.
const lingering = new WeakSet<Socket>();
const lingerMs = 2_000;

// The answer is written and the socket half-closed, but a client may still be
// sending what follows (a body behind headers too large). Closed at once, the
// socket would be reset under that client, whose kernel then drops the answer
// it had not read yet: its bytes are left to Node's failed parser to drop for
// a moment, and the socket closed when the client ends or the moment passes.
function lingerThenClose(socket: Socket): void {
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
}

function answerStarted(socket: Socket): boolean {
  return (
    (socket as Socket & { _httpMessage?: { headersSent: boolean } | null })._httpMessage?.headersSent === true
  );
}

// Errors of Fastify's router, raised before any route or hook runs (a path
// whose percent-encoding is broken, such as `/forms/%` or an encoded lone
// surrogate): answered with the error body, as everything else.
export function frameworkErrorBody(error: { code?: string }): ErrorBody {
  const description =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The request path is not a valid URL (broken percent-encoding).'
      : 'The request is not valid.';
  return {
    code: ErrorCode.ValidationError,
    description,
    details: [{ code: 'INVALID_INPUT', description, field: '', in: 'path' }],
  };
}

function charsetOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  for (const parameter of contentType.split(';').slice(1)) {
    const [name, value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() === 'charset') return value.trim().replace(/^"|"$/g, '').toLowerCase();
  }
  return undefined;
}

function refused(field: string, description: string): DomainError {
  return new DomainError(ErrorCode.ValidationError, description, [
    { code: 'INVALID_BODY', description, field, in: 'body' },
  ]);
}

function detail(field: string, where: ErrorDetail['in'], description: string): ErrorDetail {
  return { code: 'INVALID_INPUT', description, field, in: where };
}
