import type { ErrorBody } from '@formline/errors';
import { DomainError, ErrorCode } from '@formline/errors';
import { inputLimits } from '@formline/input';
import { z } from 'zod';

// How a batch of calls (BatchRpcContract) travels over NATS. The request is
// one message of JSON:
//   {"shared":[value, ...], "items":[{"requestId": ..., "shared": 0, "call": ...}, ...]}
// where an item's `shared` is the place of its shared value in `shared` (absent:
// none). The answers come back in one message or more, each at most
// `inputLimits.replyBytes`:
//   {"answers":[{"i": 0, "reply": ...}, {"i": 1, "err": <error body>}, ...]}
// `i` is the item's place in the request; the caller is done once every item
// has its answer. A request the service cannot read at all is answered
// {"err": <error body>}, which fails every item.
export const batchLimits = {
  /** Calls in one message. */
  items: 64,
  /** Bytes of calls and shared values in one message; a call larger than `itemBytes` goes alone. */
  bytes: 256 * 1024,
  itemBytes: 64 * 1024,
} as const;

const requestIdBytes = 200;

const batchEnvelope = z.object({
  shared: z.array(z.unknown()).max(batchLimits.items),
  items: z
    .array(
      z.object({
        requestId: z.string().max(requestIdBytes),
        shared: z.int().min(0).max(batchLimits.items).optional(),
        call: z.unknown(),
      }),
    )
    .min(1)
    .max(batchLimits.items),
});

export interface BatchRequestItem<Shared> {
  requestId: string;
  call: unknown;
  shared: Shared | undefined;
  // Why the call's shared value is refused: the call fails with it, alone.
  sharedInvalid?: DomainError;
}

// The request's text from texts made already: each call's JSON and each shared
// value's, so that nothing is serialised twice.
export function encodeBatchRequest(
  shared: readonly string[],
  items: ReadonlyArray<{ requestId: string; sharedAt: number | undefined; callJson: string }>,
): string {
  const calls = items.map(
    (item) =>
      `{"requestId":${JSON.stringify(item.requestId)},${item.sharedAt === undefined ? '' : `"shared":${item.sharedAt},`}"call":${item.callJson}}`,
  );
  return `{"shared":[${shared.join(',')}],"items":[${calls.join(',')}]}`;
}

// The request's calls as its service reads them, each with its shared value
// checked against the contract's schema (a call whose value is refused fails
// alone). A request that is not a batch at all answers VALIDATION_ERROR.
export function decodeBatchRequest<S extends z.ZodType>(
  text: string,
  sharedSchema: S,
): BatchRequestItem<z.output<S>>[] {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new DomainError(ErrorCode.ValidationError, 'The batch is not JSON.');
  }
  const envelope = batchEnvelope.safeParse(value);
  if (!envelope.success)
    throw new DomainError(ErrorCode.ValidationError, 'The batch is not a batch of calls.');
  const shared = envelope.data.shared.map((raw, at) => {
    const parsed = sharedSchema.safeParse(raw);
    return parsed.success
      ? { value: parsed.data }
      : { invalid: new DomainError(ErrorCode.ValidationError, `The batch's shared value ${at} is invalid.`) };
  });
  return envelope.data.items.map((item) => {
    const { requestId, call } = item;
    if (item.shared === undefined) return { requestId, call, shared: undefined };
    const found = shared[item.shared] ?? {
      invalid: new DomainError(
        ErrorCode.ValidationError,
        'The call names a shared value its batch does not hold.',
      ),
    };
    return 'value' in found
      ? { requestId, call, shared: found.value }
      : { requestId, call, shared: undefined, sharedInvalid: found.invalid };
  });
}

export type BatchAnswer = { i: number; reply: unknown } | { i: number; err: ErrorBody };

// The answers' texts packed into messages of at most `limit` bytes each.
export function packBatchAnswers(answers: readonly string[], limit = inputLimits.replyBytes): string[] {
  const messages: string[] = [];
  let chunk: string[] = [];
  let bytes = 0;
  for (const answer of answers) {
    const size = Buffer.byteLength(answer) + 1;
    if (chunk.length > 0 && bytes + size > limit) {
      messages.push(`{"answers":[${chunk.join(',')}]}`);
      chunk = [];
      bytes = 0;
    }
    chunk.push(answer);
    bytes += size;
  }
  if (chunk.length > 0) messages.push(`{"answers":[${chunk.join(',')}]}`);
  return messages;
}

// One answer message as the caller reads it: the answers it holds, or the
// failure of the whole batch.
export function decodeBatchAnswers(text: string): { answers: BatchAnswer[] } | { err: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { err: undefined };
  }
  if (typeof value !== 'object' || value === null) return { err: undefined };
  if ('answers' in value && Array.isArray(value.answers)) {
    const answers = value.answers as unknown[];
    return {
      answers: answers.filter(
        (answer): answer is BatchAnswer => typeof answer === 'object' && answer !== null,
      ),
    };
  }
  return { err: 'err' in value ? value.err : undefined };
}
