import { randomUUID } from 'node:crypto';
import { errors, type NatsConnection } from '@nats-io/transport-node';
import type { RpcContract, RpcReply, RpcRequest } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { type NatsOutcome, natsRequestDuration } from '@formline/ops';
import type { z } from 'zod';
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
    const timer = natsRequestDuration.startTimer({ subject: contract.subject });
    let outcome: NatsOutcome = 'unavailable';
    try {
      const reply = await this.send(contract, payload, requestId);
      outcome = 'ok';
      return reply;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === ErrorCode.ServiceUnavailable)) outcome = 'error';
      throw error;
    } finally {
      timer({ outcome });
    }
  }

  private async send<C extends RpcContract<z.ZodType, z.ZodType>>(
    contract: C,
    payload: RpcRequest<C>,
    requestId: string | undefined,
  ): Promise<RpcReply<C>> {
    if (!this.link.isUp()) throw unavailable(contract.subject, 'the message bus is unreachable');
    const id = randomUUID();
    const body = JSON.stringify({ pattern: contract.subject, data: payload, id });
    // Over the server's limit, NATS refuses to publish: say so instead of 503.
    const limit = this.link.connection.info?.max_payload ?? 1024 * 1024;
    if (Buffer.byteLength(body) > limit - 4096) {
      throw new DomainError(ErrorCode.PayloadTooLarge, 'The request is too large to pass on to the service.');
    }
    let raw: string;
    // A request in flight when the connection drops would only time out: its
    // message is likely lost. Answer at once instead.
    const drop = this.link.whenDropped();
    try {
      const reply = this.link.connection.request(contract.subject, body, {
        timeout: this.timeoutMs,
        headers: natsHeadersWithRequestId(requestId),
      });
      const lost = drop.dropped.then(() => Promise.reject(new errors.ConnectionError('connection lost')));
      raw = (await Promise.race([reply, lost])).string();
    } catch (error) {
      throw unavailable(contract.subject, reasonOf(error));
    } finally {
      drop.cancel();
    }
    const reply = JSON.parse(raw) as NestReply;
    if (reply.err !== undefined && reply.err !== null) {
      throw (
        DomainError.fromBody(reply.err) ??
        new DomainError(ErrorCode.InternalError, `The service behind ${contract.subject} failed.`)
      );
    }
    return reply.response as RpcReply<C>;
  }
}

function unavailable(subject: string, reason: string): DomainError {
  return new DomainError(
    ErrorCode.ServiceUnavailable,
    `Service unavailable (${subject}: ${reason}); retry later.`,
  );
}

function reasonOf(error: unknown): string {
  if (error instanceof errors.NoRespondersError) return 'no service is listening';
  if (error instanceof errors.TimeoutError) return 'no reply in time';
  if (error instanceof errors.RequestError && error.isNoResponders()) return 'no service is listening';
  if (error instanceof errors.ClosedConnectionError) return 'the message bus connection is closed';
  if (error instanceof errors.ConnectionError) return 'the message bus connection was lost';
  return 'the message bus failed';
}
