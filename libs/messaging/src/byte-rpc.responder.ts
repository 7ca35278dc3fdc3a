import type { Msg, NatsConnection } from '@nats-io/transport-node';
import type { ByteRpcContract, ByteRpcReply } from '@formline/contracts';
import { DomainError, ErrorCode, unavailableError } from '@formline/errors';
import { acceptRequestId, natsHandlerDuration, runWithRequestId } from '@formline/ops';
import type { z } from 'zod';
import { encodeByteReply, encodeErrorReply, type EncodedReply } from './byte-reply.framing';
import { ContractPipe } from './contract.pipe';
import { requestIdFromNatsHeaders } from './request-id.headers';
import { NatsResponder, type NatsResponderOptions } from './nats-responder';
import { rpcErrorBody } from './rpc-error.filter';

// Serves byte replies (ByteRpcContract) on an app's NATS connection, outside
// Nest's transport, whose serializer would write the bytes as JSON: as a
// Nest handler is served, each request is validated against its contract and
// run under its caller's request id, counted against the process's
// in-flight budget (past it, answered SERVICE_UNAVAILABLE), a failure goes back as an
// error body (rpcErrorBody) and the handler's time feeds the same metric. A
// reply larger than NATS takes is answered RESPONSE_TOO_LARGE at once, where
// its publish would fail and leave the caller waiting out its deadline.
export class ByteRpcResponder extends NatsResponder {
  constructor(connection: NatsConnection, options: NatsResponderOptions) {
    super(connection, options, 'ByteRpcResponder');
  }

  serve<C extends ByteRpcContract<z.ZodType, z.ZodType>>(
    contract: C,
    handle: (request: z.output<C['request']>) => Promise<ByteRpcReply<C>>,
  ): void {
    this.subscribe(contract.subject, (message) => this.answer(contract, handle, message));
  }

  private async answer<C extends ByteRpcContract<z.ZodType, z.ZodType>>(
    contract: C,
    handle: (request: z.output<C['request']>) => Promise<ByteRpcReply<C>>,
    message: Msg,
  ): Promise<void> {
    const requestId = acceptRequestId(requestIdFromNatsHeaders(message.headers));
    const started = process.hrtime.bigint();
    let reply: EncodedReply;
    let outcome: 'ok' | 'error' = 'ok';
    const taken = this.options.budget.take();
    try {
      if (!taken) throw unavailableError('This service, at capacity,');
      const request = requestOf<C['request']>(contract.request, message);
      reply = encodeByteReply(await runWithRequestId(requestId, () => handle(request)));
    } catch (exception) {
      outcome = 'error';
      reply = encodeErrorReply(rpcErrorBody(exception, requestId, this.logger));
    } finally {
      if (taken) this.options.budget.release();
    }
    natsHandlerDuration.observe(
      { subject: contract.subject, outcome },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
    this.respond(message, reply, requestId);
  }

  private respond(message: Msg, reply: EncodedReply, requestId: string): void {
    try {
      message.respond(reply.body, { headers: reply.headers });
      return;
    } catch (exception) {
      // Over the server's max_payload (or the connection is closing): the
      // caller hears why now, if the connection still carries anything.
      this.logger.warn({
        requestId,
        unsent: exception instanceof Error ? exception.message : String(exception),
      });
    }
    try {
      const tooLarge = encodeErrorReply(
        new DomainError(
          ErrorCode.ResponseTooLarge,
          `The answer would be ${reply.body.length} bytes, more than one NATS message holds.`,
        ).toBody(),
      );
      message.respond(tooLarge.body, { headers: tooLarge.headers });
    } catch {
      // Closed: the caller's request fails as the connection drops.
    }
  }
}

function requestOf<S extends z.ZodType>(schema: S, message: Msg): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(message.string()) as unknown;
  } catch {
    throw new DomainError(ErrorCode.ValidationError, 'The request is not JSON.');
  }
  return new ContractPipe(schema).transform(value);
}
