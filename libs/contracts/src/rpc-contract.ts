import type { z } from 'zod';

// A request/reply exchange over NATS: its subject and the shapes of both sides.
// The serving side validates the request against `request`; the calling side
// relies on the types (the reply is produced by our own code, validated there).
export interface RpcContract<Req extends z.ZodType, Rep extends z.ZodType> {
  subject: string;
  request: Req;
  reply: Rep;
}

export type RpcRequest<C> = C extends RpcContract<infer Req, z.ZodType> ? z.input<Req> : never;
export type RpcReply<C> = C extends RpcContract<z.ZodType, infer Rep> ? z.output<Rep> : never;

export function defineRpc<Req extends z.ZodType, Rep extends z.ZodType>(
  contract: RpcContract<Req, Rep>,
): RpcContract<Req, Rep> {
  return contract;
}
