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
// counted against the process's in-flight budget (a call past it is
// answered SERVICE_UNAVAILABLE at once, the others go on), its failure answered as its
// own error body. Each answer goes back as soon as its call is done, with
// those done in the same turn of the event loop (usually all of a batch,
// whose writes share a statement), in as many messages as their size needs:
// a slow call never holds back, or outlasts the caller's deadline for, the
// others. One answer too large for a message is answered RESPONSE_TOO_LARGE.
export class BatchRpcResponder extends NatsResponder {
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
    let outcome: 'ok' | 'error' = 'ok';
    const replies = new AnswerFlush((text) => this.respond(message, text));
    try {
      const items = decodeBatchRequest<C['shared']>(message.string(), contract.shared);
      await Promise.all(
        items.map(async (item, i) =>
          replies.add(
            await this.answerCall(contract.subject, i, item, pipe, (call) => handle(call, item.shared)),
          ),
        ),
      );
    } catch (exception) {
      outcome = 'error';
      const requestId = acceptRequestId(undefined);
      this.respond(message, JSON.stringify({ err: rpcErrorBody(exception, requestId, this.logger) }));
    }
    replies.flush();
    natsHandlerDuration.observe(
      { subject: contract.subject, outcome },
      Number(process.hrtime.bigint() - started) / 1e9,
    );
  }

  private respond(message: Msg, text: string): void {
    try {
      message.respond(text);
    } catch (exception) {
      // The connection is closing: the caller's calls fail as it drops.
      this.logger.warn({ unsent: exception instanceof Error ? exception.message : String(exception) });
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
    const taken = this.options.budget.take();
    const started = process.hrtime.bigint();
    return runWithRequestId(requestId, async () => {
      let outcome: 'ok' | 'error' = 'ok';
      try {
        if (!taken) throw unavailableError('This service, at capacity,');
        if (item.sharedInvalid) throw item.sharedInvalid;
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
        if (taken) this.options.budget.release();
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        this.logger.debug({ msg: 'handled', subject, outcome, durationMs: Math.round(ms * 10) / 10 });
      }
    });
  }
}

// The answers of one batch done in the same turn of the event loop, sent
// together once the turn ends (packed into messages of at most
// inputLimits.replyBytes).
class AnswerFlush {
  private ready: string[] = [];
  private scheduled = false;

  constructor(private readonly send: (text: string) => void) {}

  add(answer: string): void {
    this.ready.push(answer);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    const answers = this.ready;
    this.ready = [];
    for (const text of packBatchAnswers(answers)) this.send(text);
  }
}
