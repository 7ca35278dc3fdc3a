import { errors, type NatsConnection } from '@nats-io/transport-node';
import type { BatchRpcContract, BatchRpcItem, BatchRpcReply, BatchRpcShared } from '@formline/contracts';
import { natsRequestDuration, type NatsOutcome } from '@formline/ops';
import type { z } from 'zod';
import { type BatchAnswer, batchLimits, decodeBatchAnswers, encodeBatchRequest } from './batch-rpc.framing';
import { NatsLink } from './nats-connection';
import { natsFailureReason, rpcFailure, rpcUnavailable } from './rpc-client';

type AnyBatchContract = BatchRpcContract<z.ZodType, z.ZodType, z.ZodType>;

export interface BatchRpcClientOptions<C extends AnyBatchContract> {
  /** Batches in flight at once; calls made while all are out gather for the next. */
  lanes: number;
  /**
   * A call that goes alone, over the contract's one-call subject: one too
   * large for a batch, and every call while no service serves batches (a
   * rolling update that has not reached the service yet).
   */
  alone: (call: BatchRpcItem<C>, shared: BatchRpcShared<C>, requestId: string) => Promise<BatchRpcReply<C>>;
}

interface WaitingCall<C extends AnyBatchContract> {
  call: BatchRpcItem<C>;
  callJson: string;
  shared: BatchRpcShared<C>;
  requestId: string;
  bytes: number;
  // A call still waiting for a lane by then is answered SERVICE_UNAVAILABLE, unsent.
  deadline: number;
  resolve: (reply: BatchRpcReply<C>) => void;
  reject: (error: unknown) => void;
}

interface Batch<C extends AnyBatchContract> {
  calls: WaitingCall<C>[];
  // Each distinct shared value's JSON, and the place of each call's in it.
  shared: string[];
  places: (number | undefined)[];
}

// Calls a service's batch subject (BatchRpcContract): a call made while fewer
// than `lanes` batches are out goes at once, alone in its message; calls made
// meanwhile gather and go together as soon as a lane is free (as a database's
// group commit does). A busy gateway thus sends one message, and its service
// makes one round of work, for many submissions, and a quiet one waits for
// none. Each caller gets its own call's answer or failure, as RpcClient
// would give it: the service's error as it sent it, SERVICE_UNAVAILABLE when
// NATS or the service is away or slow. A call waits for a lane at most its
// timeout (then it is answered SERVICE_UNAVAILABLE, never sent) and for its
// answer at most its timeout once sent.
export class BatchRpcClient<C extends AnyBatchContract> {
  private readonly link: NatsLink;
  private waiting: WaitingCall<C>[] = [];
  private lanesOut = 0;
  // Each shared value's JSON, made once for as long as the caller keeps the
  // value (a form's cached snapshot).
  private readonly sharedJson = new WeakMap<object, string>();

  constructor(
    connection: NatsConnection,
    private readonly contract: C,
    private readonly timeoutMs: number,
    private readonly options: BatchRpcClientOptions<C>,
  ) {
    this.link = new NatsLink(connection);
  }

  // `shared`: the value this call shares with others (the same object for
  // every call that shares it: it goes once per message).
  call(call: BatchRpcItem<C>, shared: BatchRpcShared<C>, requestId: string): Promise<BatchRpcReply<C>> {
    const callJson = JSON.stringify(call);
    const bytes = Buffer.byteLength(callJson);
    if (bytes > batchLimits.itemBytes) return this.options.alone(call, shared, requestId);
    return new Promise<BatchRpcReply<C>>((resolve, reject) => {
      this.waiting.push({
        call,
        callJson,
        shared,
        requestId,
        bytes,
        deadline: Date.now() + this.timeoutMs,
        resolve,
        reject,
      });
      if (this.lanesOut < this.options.lanes) void this.sendNext();
    });
  }

  private async sendNext(): Promise<void> {
    this.lanesOut += 1;
    try {
      while (this.waiting.length > 0) {
        const batch = this.takeBatch();
        if (batch.calls.length > 0) await this.send(batch);
      }
    } catch (error) {
      // Nothing above throws by design; should it, the calls waiting hear it
      // rather than wait for ever.
      for (const waiting of this.waiting.splice(0)) waiting.reject(error);
    } finally {
      this.lanesOut -= 1;
    }
  }

  // The calls that go next: in the order they came, up to a message's bounds.
  private takeBatch(): Batch<C> {
    const calls: WaitingCall<C>[] = [];
    const sharedAt = new Map<BatchRpcShared<C>, number>();
    const shared: string[] = [];
    const places: (number | undefined)[] = [];
    let bytes = 0;
    let taken = 0;
    const now = Date.now();
    for (const waiting of this.waiting) {
      if (waiting.deadline <= now) {
        waiting.reject(rpcUnavailable(this.contract.subject, 'no reply in time'));
        taken += 1;
        continue;
      }
      const place = sharedAt.get(waiting.shared);
      const sharedJson = place === undefined ? this.jsonOf(waiting.shared) : undefined;
      const weight = waiting.bytes + (sharedJson === undefined ? 0 : Buffer.byteLength(sharedJson));
      if (calls.length >= batchLimits.items || (calls.length > 0 && bytes + weight > batchLimits.bytes))
        break;
      calls.push(waiting);
      taken += 1;
      if (sharedJson === undefined) places.push(place);
      else {
        sharedAt.set(waiting.shared, shared.length);
        places.push(shared.length);
        shared.push(sharedJson);
      }
      bytes += weight;
    }
    this.waiting = this.waiting.slice(taken);
    return { calls, shared, places };
  }

  private jsonOf(value: BatchRpcShared<C>): string {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value);
    let json = this.sharedJson.get(value);
    if (json === undefined) {
      json = JSON.stringify(value);
      this.sharedJson.set(value, json);
    }
    return json;
  }

  private async send(batch: Batch<C>): Promise<void> {
    const { subject } = this.contract;
    const timer = natsRequestDuration.startTimer({ subject });
    let outcome: NatsOutcome = 'unavailable';
    const unanswered = new Set(batch.calls.keys());
    const drop = this.link.whenDropped();
    try {
      if (!this.link.isUp()) throw new errors.ConnectionError('the message bus is unreachable');
      const frame = encodeBatchRequest(
        batch.shared,
        batch.calls.map((call, i) => ({
          requestId: call.requestId,
          sharedAt: batch.places[i],
          callJson: call.callJson,
        })),
      );
      const replies = await this.link.connection.requestMany(subject, frame, {
        strategy: 'timer',
        maxWait: this.timeoutMs,
      });
      const answered = (async () => {
        for await (const message of replies) {
          const decoded = decodeBatchAnswers(message.string());
          if ('err' in decoded) {
            const failure = rpcFailure(subject, decoded.err);
            for (const i of unanswered) batch.calls[i].reject(failure);
            unanswered.clear();
          } else {
            for (const answer of decoded.answers) this.settle(batch.calls, unanswered, answer);
          }
          if (unanswered.size === 0) break;
        }
      })();
      const lost = drop.dropped.then(() => Promise.reject(new errors.ConnectionError('connection lost')));
      await Promise.race([answered, lost]);
      outcome = unanswered.size === 0 ? 'ok' : 'unavailable';
    } catch (error) {
      if (error instanceof errors.NoRespondersError) {
        // No service of this version serves batches: each call alone.
        for (const i of unanswered) this.goAlone(batch.calls[i]);
        unanswered.clear();
        return;
      }
      const failure = rpcUnavailable(subject, natsFailureReason(error));
      for (const i of unanswered) batch.calls[i].reject(failure);
      unanswered.clear();
    } finally {
      drop.cancel();
      if (unanswered.size > 0) {
        const late = rpcUnavailable(subject, 'no reply in time');
        for (const i of unanswered) batch.calls[i].reject(late);
      }
      timer({ outcome });
    }
  }

  private settle(calls: WaitingCall<C>[], unanswered: Set<number>, answer: BatchAnswer): void {
    const { i } = answer;
    if (typeof i !== 'number' || !unanswered.has(i)) return;
    unanswered.delete(i);
    if ('err' in answer) calls[i].reject(rpcFailure(this.contract.subject, answer.err));
    else calls[i].resolve(answer.reply as BatchRpcReply<C>);
  }

  private goAlone(waiting: WaitingCall<C>): void {
    this.options.alone(waiting.call, waiting.shared, waiting.requestId).then(waiting.resolve, waiting.reject);
  }
}
