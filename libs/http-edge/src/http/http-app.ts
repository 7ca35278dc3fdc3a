import type { LoggerService } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyHttpOptions, FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import { inputLimits } from '@formline/input';
import { type OpsServer, stopOnSignal } from '@formline/ops';
import { frameworkErrorBody, parseJsonBody } from './request-hygiene';

type FastifyAdapterOptions = FastifyHttpOptions<Server>;

// The life of every HTTP app of ours (the gateway, media) on Fastify, the
// parts they share: inputs bounded as `inputLimits` says, the framework's own
// errors (a malformed body, a bad header) answered 400 with the error body,
// long path ids left to the request checks, which answer them with the error
// body too (the router's own 414 has neither body nor request id). `options`
// adds to these (the gateway's proxies and time limits).
export function edgeFastifyAdapter(options: FastifyAdapterOptions = {}): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: inputLimits.bodyBytes,
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
      void reply.code(400).send(frameworkErrorBody(error)),
    routerOptions: { maxParamLength: 8 * inputLimits.id },
    ...options,
  });
}

// JSON bodies read by parseJsonBody (no prototype keys, bounded depth), each
// refusal the error body.
export function parseJsonBodies(app: NestFastifyApplication): void {
  app.useBodyParser('application/json', { bodyLimit: inputLimits.bodyBytes }, (request, body, done) => {
    let parsed: unknown;
    try {
      parsed = parseJsonBody(request, body);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, parsed);
  });
}

export interface ServedApp {
  name: string;
  app: NestFastifyApplication;
  ops: OpsServer;
  logger: LoggerService;
  config: { REGION: string; HTTP_HOST: string; HTTP_PORT: number; SHUTDOWN_TIMEOUT_MS: number };
  /** First thing on SIGTERM, once not ready (e.g. stop watching the event loop). */
  onStop?: () => void;
}

// Listens, reports ready, and on SIGTERM: not ready, the app closed (requests
// in work answered), then the ops server, within SHUTDOWN_TIMEOUT_MS.
export async function serveUntilSignal({ name, app, ops, logger, config, onStop }: ServedApp): Promise<void> {
  await app.listen(config.HTTP_PORT, config.HTTP_HOST);
  ops.markStarted();
  logger.log(`${name} (${config.REGION}) on http://${config.HTTP_HOST}:${config.HTTP_PORT}`);
  stopOnSignal(
    logger,
    async () => {
      ops.markShuttingDown();
      onStop?.();
      await app.close();
      await ops.close();
    },
    config.SHUTDOWN_TIMEOUT_MS,
  );
}
