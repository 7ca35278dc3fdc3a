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

// A request/reply exchange whose reply is bytes passed on as they are (an
// export's page of JSON lines), not a JSON document: the request is JSON as
// any other's; the reply's body is the bytes, and what describes them
// (`meta`, small) travels beside them as JSON in a header. Nothing between
// the two services escapes, parses or copies the bytes into strings.
export interface ByteRpcContract<Req extends z.ZodType, Meta extends z.ZodType> {
  subject: string;
  request: Req;
  meta: Meta;
}

export interface ByteReply<Meta> {
  meta: Meta;
  body: Uint8Array;
}

export type ByteRpcRequest<C> = C extends ByteRpcContract<infer Req, z.ZodType> ? z.input<Req> : never;
export type ByteRpcReply<C> =
  C extends ByteRpcContract<z.ZodType, infer Meta> ? ByteReply<z.output<Meta>> : never;

export function defineByteRpc<Req extends z.ZodType, Meta extends z.ZodType>(
  contract: ByteRpcContract<Req, Meta>,
): ByteRpcContract<Req, Meta> {
  return contract;
}

// Many calls of one kind in one NATS message, each answered on its own (a
// gateway's submissions that arrive together): `item` is one call, `reply`
// its answer. A value several calls share (a form's snapshot) travels once per
// message, in `shared`, and comes to the handler with each call that shares it.
export interface BatchRpcContract<Item extends z.ZodType, Shared extends z.ZodType, Rep extends z.ZodType> {
  subject: string;
  item: Item;
  shared: Shared;
  reply: Rep;
}

export type BatchRpcItem<C> =
  C extends BatchRpcContract<infer Item, z.ZodType, z.ZodType> ? z.input<Item> : never;
export type BatchRpcShared<C> =
  C extends BatchRpcContract<z.ZodType, infer Shared, z.ZodType> ? z.input<Shared> : never;
export type BatchRpcReply<C> =
  C extends BatchRpcContract<z.ZodType, z.ZodType, infer Rep> ? z.output<Rep> : never;

export function defineBatchRpc<Item extends z.ZodType, Shared extends z.ZodType, Rep extends z.ZodType>(
  contract: BatchRpcContract<Item, Shared, Rep>,
): BatchRpcContract<Item, Shared, Rep> {
  return contract;
}
