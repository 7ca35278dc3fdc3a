import { type ELDHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { ErrorCode, type ErrorBody, httpStatusByCode } from '@formline/errors';
import type { FastifyInstance } from 'fastify';

export interface LoadSheddingLimits {
  /** Requests handled at once; 0: no bound. */
  maxInFlight: number;
  /** Mean event-loop delay in ms over a sample window; 0: no bound. */
  maxEventLoopDelayMs: number;
}

const sampleEveryMs = 500;

// Decides whether the gateway takes one more request. Two signals, both
// cheap: the requests it is already handling, and how late its event loop
// runs (the process is short of CPU). Over either, a request is refused at
// once with 503 and Retry-After: a client told to come back later costs
// nothing, one left queueing makes every other request slower, and a retry
// storm after an outage would otherwise keep the process saturated long
// after its dependencies came back.
export class LoadShedder {
  private inFlight = 0;
  private delayed = false;
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

  // The reason to refuse the next request, or undefined to take it (and count it).
  admit(): string | undefined {
    if (this.delayed) return 'The server is short of CPU right now.';
    if (this.limits.maxInFlight > 0 && this.inFlight >= this.limits.maxInFlight) {
      return 'The server is handling as many requests as it can right now.';
    }
    this.inFlight += 1;
    return undefined;
  }

  // A request admitted earlier is done (answered, failed or abandoned).
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

// Installs the shedder first in the gateway's request hooks, so that a shed
// request costs no parsing, routing work or authentication (it still gets its
// request id and access-log line, installed before this).
export function installLoadShedding(fastify: FastifyInstance, shedder: LoadShedder): void {
  // One listener for every response ('close' comes once per response): no
  // closure and no once() wrapper made per request.
  const release = () => shedder.release();
  fastify.addHook('onRequest', (_request, reply, done) => {
    const refusal = shedder.admit();
    if (refusal === undefined) {
      // A response always closes, answered or abandoned by its caller: the
      // count can never leak and shed the gateway for good.
      reply.raw.on('close', release);
      done();
      return;
    }
    const body: ErrorBody = {
      code: ErrorCode.ServiceUnavailable,
      description: `${refusal} Retry after the time in Retry-After.`,
    };
    void reply.code(httpStatusByCode[ErrorCode.ServiceUnavailable]).header('Retry-After', '1').send(body);
  });
  fastify.addHook('onClose', (_instance, done) => {
    shedder.stop();
    done();
  });
}
