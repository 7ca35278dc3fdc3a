import type { Msg, NatsConnection } from '@nats-io/transport-node';
import type { BatchRpcContract, BatchRpcReply } from '@formline/contracts';
import { DomainError, ErrorCode, unavailableError } from '@formline/errors';
import { inputLimits } from '@formline/input';
import { acceptRequestId, natsHandlerDuration, runWithRequestId } from '@formline/ops';
import type { z } from 'zod';
import { type BatchRequestItem, decodeBatchRequest, packBatchAnswers } from './batch-rpc.framing';
import { ContractPipe } from './contract.pipe';
import { NatsResponder, type NatsResponderOptions } from './nats-responder';
import { rpcErrorBody } from './rpc-error.filter';

// Room for the message's own brackets around the largest answer.
const largestAnswerBytes = inputLimits.replyBytes - 64;

type Handler<C extends BatchRpcContract<z.ZodType, z.ZodType, z.ZodType>> = (
  call: z.output<C['item']>,
  shared: z.output<C['shared']> | undefined,
) => Promise<BatchRpcReply<C>>;

// Serves batches of calls (BatchRpcContract, batch-rpc.framing.ts) outside
// Nest's transport: every call of a batch runs at once, as a request of its
// own would: validated against the contract, under its caller's request id,
// counted against `maxInFlight` (a call over it is answered
// SERVICE_UNAVAILABLE, the others go on), its failure answered as its own
// error body. The answers go back together once all are done, in as many
// messages as their size needs; one answer too large for a message is
// answered RESPONSE_TOO_LARGE.
export class BatchRpcResponder extends NatsResponder {
  private callsInWork = 0;

  constructor(connection: NatsConnection, options: NatsResponderOptions) {
    super(connection, options, 'BatchRpcResponder');
  }

  serve<C extends BatchRpcContract<z.ZodType, z.ZodType, z.ZodType>>(contract: C, handle: Handler<C>): void {
    const pipe = new ContractPipe(contract.item);
    this.subscribe(contract.subject, (message) => this.answer(contract, pipe, handle, message));
  }

  private async answer<C extends BatchRpcContract<z.ZodType, z.ZodType, z.ZodType>>(
    contract: C,
    pipe: ContractPipe<C['item']>,
    handle: Handler<C>,
    message: Msg,
  ): Promise<void> {
    const started = process.hrtime.bigint();
    let messages: string[];
    let outcome: 'ok' | 'error' = 'ok';
    try {
      const items = decodeBatchRequest<C['shared']>(message.string(), contract.shared);
      const answers = await Promise.all(
        items.map((item, i) =>
          this.answerCall(contract.subject, i, item, pipe, (call) => handle(call, item.shared)),
        ),
      );
      messages = packBatchAnswers(answers);
    } catch (exception) {
      outcome = 'error';
      const requestId = acceptRequestId(undefined);
      messages = [JSON.stringify({ err: rpcErrorBody(exception, requestId, this.logger) })];
    }
    natsHandlerDuration.observe(
      { subject: contract.subject, outcome },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
    for (const text of messages) {
      try {
        message.respond(text);
      } catch (exception) {
        // The connection is closing: the caller's calls fail as it drops.
        this.logger.warn({ unsent: exception instanceof Error ? exception.message : String(exception) });
        return;
      }
    }
  }

  // One call's answer, as the text of its place in an answer message.
  private answerCall<Item extends z.ZodType>(
    subject: string,
    i: number,
    item: BatchRequestItem<unknown>,
    pipe: ContractPipe<Item>,
    handle: (call: z.output<Item>) => Promise<unknown>,
  ): Promise<string> {
    const requestId = acceptRequestId(item.requestId);
    // Counted before this one joins them, as every call of the batch is.
    const refused = this.callsInWork >= this.options.maxInFlight;
    if (!refused) this.callsInWork += 1;
    const started = process.hrtime.bigint();
    return runWithRequestId(requestId, async () => {
      let outcome: 'ok' | 'error' = 'ok';
      try {
        if (refused) throw unavailableError('This service, at capacity,');
        const reply = await handle(pipe.transform(item.call));
        const text = JSON.stringify({ i, reply });
        const bytes = Buffer.byteLength(text);
        if (bytes > largestAnswerBytes) {
          throw new DomainError(
            ErrorCode.ResponseTooLarge,
            `The answer would be ${bytes} bytes, more than one NATS message holds.`,
          );
        }
        return text;
      } catch (exception) {
        outcome = 'error';
        return JSON.stringify({ i, err: rpcErrorBody(exception, requestId, this.logger) });
      } finally {
        if (!refused) this.callsInWork -= 1;
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        this.logger.debug({ msg: 'handled', subject, outcome, durationMs: Math.round(ms * 10) / 10 });
      }
    });
  }
}
