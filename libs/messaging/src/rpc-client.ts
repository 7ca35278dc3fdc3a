import { randomUUID } from 'node:crypto';
import { errors, type Msg, type NatsConnection } from '@nats-io/transport-node';
import type {
  ByteRpcContract,
  ByteRpcReply,
  ByteRpcRequest,
  RpcContract,
  RpcReply,
  RpcRequest,
} from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { type NatsOutcome, natsRequestDuration } from '@formline/ops';
import type { z } from 'zod';
import { byteReplyOf } from './byte-reply.framing';
import { NatsLink } from './nats-connection';
import { natsHeadersWithRequestId } from './request-id.headers';

// The envelope NestJS's NATS transport speaks, so our services stay plain
// `@MessagePattern` handlers: request `{pattern, data, id}`, reply `{id, response?, err?}`.
interface NestReply {
  id?: string;
  response?: unknown;
  err?: unknown;
}

// Calls a service over NATS request/reply. Every failure comes back as a
// DomainError: the service's own error as it sent it, and an unreachable,
// absent or slow service as SERVICE_UNAVAILABLE, answered at once when NATS is down.
// The request id travels as a header; every call's wait is measured. The
// caller names the request id (the gateway from its HTTP request, the services
// from their context): the gateway keeps no AsyncLocalStorage, so that the
// compiler finds a call without one (docs/decisions/operations-and-deploy.md,
// "The gateway passes request ids by hand").
export class RpcClient {
  private readonly link: NatsLink;

  constructor(
    connection: NatsConnection,
    private readonly timeoutMs: number,
  ) {
    this.link = new NatsLink(connection);
  }

  isConnected(): boolean {
    return this.link.isUp();
  }

  async request<C extends RpcContract<z.ZodType, z.ZodType>>(
    contract: C,
    payload: RpcRequest<C>,
    requestId: string | undefined,
  ): Promise<RpcReply<C>> {
    return this.timed(contract.subject, async () => {
      const id = randomUUID();
      const body = JSON.stringify({ pattern: contract.subject, data: payload, id });
      const reply = JSON.parse(
        (await this.exchange(contract.subject, body, requestId)).string(),
      ) as NestReply;
      if (reply.err !== undefined && reply.err !== null) throw rpcFailure(contract.subject, reply.err);
      return reply.response as RpcReply<C>;
    });
  }

  // A call whose reply is bytes handed on as they came (byte-reply.framing.ts):
  // the request is the contract's JSON as it is, without Nest's envelope.
  async requestBytes<C extends ByteRpcContract<z.ZodType, z.ZodType>>(
    contract: C,
    payload: ByteRpcRequest<C>,
    requestId: string | undefined,
  ): Promise<ByteRpcReply<C>> {
    return this.timed(contract.subject, async () => {
      const reply = byteReplyOf(await this.exchange(contract.subject, JSON.stringify(payload), requestId));
      if ('err' in reply) throw rpcFailure(contract.subject, reply.err);
      return reply as ByteRpcReply<C>;
    });
  }

  private async timed<T>(subject: string, call: () => Promise<T>): Promise<T> {
    const timer = natsRequestDuration.startTimer({ subject });
    let outcome: NatsOutcome = 'unavailable';
    try {
      const reply = await call();
      outcome = 'ok';
      return reply;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === ErrorCode.ServiceUnavailable)) outcome = 'error';
      throw error;
    } finally {
      timer({ outcome });
    }
  }

  private async exchange(subject: string, body: string, requestId: string | undefined): Promise<Msg> {
    if (!this.link.isUp()) throw rpcUnavailable(subject, 'the message bus is unreachable');
    // Over the server's limit, NATS refuses to publish: say so instead of 503.
    const limit = this.link.connection.info?.max_payload ?? 1024 * 1024;
    if (Buffer.byteLength(body) > limit - 4096) {
      throw new DomainError(ErrorCode.PayloadTooLarge, 'The request is too large to pass on to the service.');
    }
    // A request in flight when the connection drops would only time out: its
    // message is likely lost. Answer at once instead.
    const drop = this.link.whenDropped();
    try {
      const reply = this.link.connection.request(subject, body, {
        timeout: this.timeoutMs,
        headers: natsHeadersWithRequestId(requestId),
      });
      const lost = drop.dropped.then(() => Promise.reject(new errors.ConnectionError('connection lost')));
      return await Promise.race([reply, lost]);
    } catch (error) {
      throw rpcUnavailable(subject, natsFailureReason(error));
    } finally {
      drop.cancel();
    }
  }
}

// The service's own error as it sent it; anything else as its failure.
export function rpcFailure(subject: string, body: unknown): DomainError {
  return (
    DomainError.fromBody(body) ??
    new DomainError(ErrorCode.InternalError, `The service behind ${subject} failed.`)
  );
}

export function rpcUnavailable(subject: string, reason: string): DomainError {
  return new DomainError(
    ErrorCode.ServiceUnavailable,
    `Service unavailable (${subject}: ${reason}); retry later.`,
  );
}

export function natsFailureReason(error: unknown): string {
  if (error instanceof errors.NoRespondersError) return 'no service is listening';
  if (error instanceof errors.TimeoutError) return 'no reply in time';
  if (error instanceof errors.RequestError && error.isNoResponders()) return 'no service is listening';
  if (error instanceof errors.ClosedConnectionError) return 'the message bus connection is closed';
  if (error instanceof errors.ConnectionError) return 'the message bus connection was lost';
  return 'the message bus failed';
}
