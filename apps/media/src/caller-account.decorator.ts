import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { forwardedAccountHeader } from '@formline/contracts';
import type { FastifyRequest } from 'fastify';

// The account of the token the gateway let the request in with, or undefined
// for an anonymous caller (forwardedAccountHeader).
export const CallerAccount = createParamDecorator(
  (_: unknown, context: ExecutionContext): string | undefined => {
    const value = context.switchToHttp().getRequest<FastifyRequest>().headers[forwardedAccountHeader];
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  },
);
