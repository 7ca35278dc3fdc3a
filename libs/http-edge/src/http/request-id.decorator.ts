import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

// The request's id (X-Request-Id, accepted or made up by observeHttpRequests),
// for the handler to pass on with every NATS call it makes. The gateway hands
// it over explicitly rather than through AsyncLocalStorage (see RpcClient).
export const RequestId = createParamDecorator(
  (_: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<FastifyRequest>().requestId,
);
