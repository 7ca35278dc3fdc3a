import http, { type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  respondentFilePath,
  respondentFileUploadPath,
  type AccessTokenPrincipal,
  type StoredFile,
  type UploadedFile,
  uploadedFileSchema,
} from '@formline/contracts';
import { DomainError, unavailableError } from '@formline/errors';
import { forwardingHeaders, forwardingKey } from '@formline/http-edge';
import { REQUEST_ID_HEADER } from '@formline/ops';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';

// What of the caller's request the media app needs, and what of its answer
// the caller gets. Everything else (cookies, the token, hop-by-hop headers)
// stays on this side.
const requestHeaders = ['accept', 'content-type', 'if-none-match'] as const;
const answerHeaders = [
  'cache-control',
  'content-disposition',
  'content-type',
  'etag',
  'retry-after',
  'www-authenticate',
  'x-content-type-options',
] as const;

// The gateway's way to this region's media app (MEDIA_URL). An image route's
// request, once let in, is forwarded with the caller's account and its answer
// streamed back as it comes: status, the headers above and the body, whatever
// it is (an image, an error body). A respondent's file is streamed to the
// media app's file routes and read back from them (respondent-files
// contract), its bytes never held whole here. The media app unreachable, or
// silent for GATEWAY_IDLE_TIMEOUT_MS, is a 503 with Retry-After, like any
// service of the region that does not answer.
@Injectable()
export class MediaAppClient implements OnApplicationShutdown {
  private readonly base: URL;
  private readonly idleMs: number;
  private readonly key: Buffer;
  private readonly agent = new http.Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 4_000 });

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = new URL(config.MEDIA_URL);
    this.idleMs = config.GATEWAY_IDLE_TIMEOUT_MS;
    this.key = forwardingKey(config.MEDIA_FORWARDING_KEY);
  }

  // Where a request goes on the media app, and the headers that let it in
  // there: the caller's account and the gateway's signature of the request
  // (media-forwarding contract), over the path as media will read it.
  private target(
    path: string,
    method: string,
    accountId: string | undefined,
  ): { url: URL; headers: Record<string, string> } {
    const url = new URL(path, this.base);
    return {
      url,
      headers: forwardingHeaders(this.key, { method, url: url.pathname + url.search, accountId }),
    };
  }

  forward(
    request: FastifyRequest,
    reply: FastifyReply,
    principal: AccessTokenPrincipal | undefined,
    body?: unknown,
  ): Promise<void> {
    const target = this.target(request.url, request.method, principal?.accountId);
    const headers: Record<string, string> = { [REQUEST_ID_HEADER]: request.requestId, ...target.headers };
    for (const name of requestHeaders) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise<void>((resolve, reject) => {
      const upstream = http.request(
        target.url,
        { method: request.method, headers, agent: this.agent },
        (answer) => {
          void reply.status(answer.statusCode ?? 502);
          for (const name of answerHeaders) {
            const value = answer.headers[name];
            if (value !== undefined) void reply.header(name, value);
          }
          void reply.send(answer);
          resolve();
        },
      );
      // A caller that leaves stops the work it asked for.
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) upstream.destroy();
      });
      upstream.setTimeout(this.idleMs, () => upstream.destroy(new Error('the media app fell silent')));
      upstream.once('error', () => reject(unavailableError('The media service')));
      upstream.end(payload);
    });
  }

  // Streams the body of an upload the gateway let in (its Content-Length
  // checked and its budgets reserved) to the media app, which stores it: the
  // bytes flow from the caller's socket to the media app's as fast as the
  // media app reads them, and none is held here beyond the sockets' buffers.
  // The caller leaving mid-body cuts the upstream body short, which the media
  // app stores nothing of. Answers what was stored; a refusal of the media
  // app's is thrown as its own error.
  storeFile(
    request: FastifyRequest,
    file: { formId: string; fieldId: string; filename: string },
  ): Promise<UploadedFile> {
    const body = request.raw;
    const target = this.target(
      respondentFileUploadPath(file.formId, file.fieldId, file.filename),
      'POST',
      undefined,
    );
    return new Promise<UploadedFile>((resolve, reject) => {
      const upstream = http.request(
        target.url,
        {
          method: 'POST',
          headers: {
            ...target.headers,
            [REQUEST_ID_HEADER]: request.requestId,
            'content-type': 'application/octet-stream',
            'content-length': String(request.headers['content-length']),
          },
          agent: this.agent,
        },
        (answer) => {
          // An early answer (a refusal) ends the sending; Node drops what the caller still sends.
          body.unpipe(upstream);
          readSmallAnswer(answer).then(({ status, json }) => {
            const stored = status === 201 ? uploadedFileSchema.safeParse(json) : undefined;
            if (stored?.success) resolve(stored.data);
            else reject(DomainError.fromBody(json) ?? unavailableError('The media service'));
          }, reject);
        },
      );
      body.once('close', () => {
        if (!body.complete) upstream.destroy(new Error('the caller left before its body ended'));
      });
      upstream.setTimeout(this.idleMs, () => upstream.destroy(new Error('the media app fell silent')));
      upstream.once('error', () => reject(unavailableError('The media service')));
      body.pipe(upstream);
    });
  }

  // A respondent's file from the media app, as a stream with its size (never
  // read whole here), or undefined when the store has none.
  async openFile(requestId: string, file: StoredFile): Promise<{ size: number; body: Readable } | undefined> {
    const target = this.target(respondentFilePath(file), 'GET', undefined);
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const upstream = http.get(
        target.url,
        { headers: { ...target.headers, [REQUEST_ID_HEADER]: requestId }, agent: this.agent },
        resolve,
      );
      upstream.setTimeout(this.idleMs, () => upstream.destroy(new Error('the media app fell silent')));
      upstream.once('error', () => reject(unavailableError('The media service')));
    });
    const size = Number(answer.headers['content-length']);
    if (answer.statusCode === 200 && Number.isSafeInteger(size)) return { size, body: answer };
    answer.resume();
    if (answer.statusCode === 404) return undefined;
    throw unavailableError('The media service');
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }
}

// The media app's answer to an upload: a small JSON body (what was stored, or an error body).
async function readSmallAnswer(answer: IncomingMessage): Promise<{ status: number; json: unknown }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of answer) {
      bytes += (chunk as Buffer).length;
      if (bytes > 64 * 1024) throw new Error('the answer is too large');
      chunks.push(chunk as Buffer);
    }
    return { status: answer.statusCode ?? 502, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    throw unavailableError('The media service');
  }
}
