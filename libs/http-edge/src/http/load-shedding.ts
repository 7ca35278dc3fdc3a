import { type ELDHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { ErrorCode, type ErrorBody, httpStatusByCode } from '@formline/errors';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface LoadSheddingLimits {
  /** Requests handled at once; 0: no bound. */
  maxInFlight: number;
  /** Mean event-loop delay in ms over a sample window; 0: no bound. */
  maxEventLoopDelayMs: number;
}

// A resource some routes need besides CPU (the image render pool): while it
// is saturated, those routes are shed and every other route is served.
export interface ShedResource {
  /** Routes as `METHOD /pattern` (`GET /images/:image_id/:kind/:size`). */
  routes: readonly string[];
  /** Why it takes no more work now, or undefined while it does. */
  saturation(): string | undefined;
}

const sampleEveryMs = 500;

// Decides whether the gateway takes one more request. Its signals are all
// cheap: the requests it is already handling, and how late its event loop
// runs (the process is short of CPU). Over either, a request is refused at
// once with 503 and Retry-After: a client told to come back later costs
// nothing, one left queueing makes every other request slower, and a retry
// storm after an outage would otherwise keep the process saturated long
// after its dependencies came back. Resources that only some routes use
// (`watch`) shed those routes alone while they are saturated.
export class LoadShedder {
  private inFlight = 0;
  private delayed = false;
  // By route pattern, then method: a request finds its resource with no string built.
  private readonly resources = new Map<string, Map<string, ShedResource>>();
  private readonly histogram?: ELDHistogram;
  private readonly timer?: NodeJS.Timeout;

  constructor(
    private readonly limits: LoadSheddingLimits,
    readEventLoopDelayMs?: () => number,
  ) {
    if (limits.maxEventLoopDelayMs > 0) {
      let read = readEventLoopDelayMs;
      if (!read) {
        const histogram = monitorEventLoopDelay({ resolution: 10 });
        histogram.enable();
        this.histogram = histogram;
        read = () => {
          // The histogram counts the resolution's own wait as delay.
          const meanMs = Number.isNaN(histogram.mean) ? 0 : histogram.mean / 1e6 - 10;
          histogram.reset();
          return meanMs;
        };
      }
      const sample = read;
      this.timer = setInterval(() => this.sample(sample()), sampleEveryMs).unref();
    }
  }

  watch(resource: ShedResource): void {
    for (const route of resource.routes) {
      const [method, pattern] = route.split(' ');
      let byMethod = this.resources.get(pattern);
      if (!byMethod) this.resources.set(pattern, (byMethod = new Map<string, ShedResource>()));
      byMethod.set(method, resource);
    }
  }

  // The reason to refuse the next request (its method and route pattern, when
  // a route matched), or undefined to take it (and count it).
  admit(method?: string, pattern?: string): string | undefined {
    if (this.delayed) return 'The server is short of CPU right now.';
    const resource =
      pattern === undefined || method === undefined ? undefined : this.resources.get(pattern)?.get(method);
    const saturated = resource?.saturation();
    if (saturated !== undefined) return saturated;
    if (this.limits.maxInFlight > 0 && this.inFlight >= this.limits.maxInFlight) {
      return 'The server is handling as many requests as it can right now.';
    }
    this.inFlight += 1;
    return undefined;
  }

  // Counts a request admitted earlier that is worked on again (its body has
  // arrived): never refused, it has waited its turn already.
  resume(): void {
    this.inFlight += 1;
  }

  // A request admitted earlier is done (answered, failed or abandoned), or
  // waits on its client to send its body.
  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  sample(eventLoopDelayMs: number): void {
    this.delayed = eventLoopDelayMs > this.limits.maxEventLoopDelayMs;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.histogram?.disable();
  }
}

// Whether a response holds one of the shedder's slots, and whether it has closed.
const holdsSlot = Symbol('holdsSlot');
const closed = Symbol('closed');
type CountedResponse = ServerResponse & { [holdsSlot]?: boolean; [closed]?: boolean };

// Installs the shedder first in the gateway's request hooks, so that a shed
// request costs no parsing, routing work or authentication (it still gets its
// request id and access-log line, installed before this).
//
// The count is of requests being worked on, not of sockets: a request gives
// its slot back while its body is read (a client sending it a byte at a time
// is waiting on itself, and a thousand of them must not shed everyone else)
// and takes one again once the body is in. The time limits on reading a body
// bound how long such a request may wait.
export function installLoadShedding(fastify: FastifyInstance, shedder: LoadShedder): void {
  // One listener for every response ('close' comes once per response): no
  // closure and no once() wrapper made per request.
  function release(this: CountedResponse): void {
    this[closed] = true;
    if (!this[holdsSlot]) return;
    this[holdsSlot] = false;
    shedder.release();
  }
  fastify.addHook('onRequest', (request, reply, done) => {
    const refusal = shedder.admit(request.method, request.routeOptions.url);
    if (refusal === undefined) {
      // A response always closes, answered or abandoned by its caller: the
      // count can never leak and shed the gateway for good.
      const response = reply.raw as CountedResponse;
      response[holdsSlot] = true;
      response.on('close', release);
      done();
      return;
    }
    const body: ErrorBody = {
      code: ErrorCode.ServiceUnavailable,
      description: `${refusal} Retry after the time in Retry-After.`,
    };
    void reply.code(httpStatusByCode[ErrorCode.ServiceUnavailable]).header('Retry-After', '1').send(body);
  });
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const response = reply.raw as CountedResponse;
    if (response[holdsSlot] && hasBody(request.headers)) {
      response[holdsSlot] = false;
      shedder.release();
    }
    done(null, payload);
  });
  fastify.addHook('preValidation', (_request, reply, done) => {
    const response = reply.raw as CountedResponse;
    if (!response[holdsSlot] && !response[closed]) {
      response[holdsSlot] = true;
      shedder.resume();
    }
    done();
  });
  fastify.addHook('onClose', (_instance, done) => {
    shedder.stop();
    done();
  });
}

function hasBody(headers: { 'content-length'?: string; 'transfer-encoding'?: string }): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
