import { ErrorCode } from '@formline/errors';
import { z } from 'zod';
import {
  batchLimits,
  decodeBatchAnswers,
  decodeBatchRequest,
  encodeBatchRequest,
  packBatchAnswers,
} from './batch-rpc.framing';

describe('the framing of a batch of calls', () => {
  const shared = z.object({ form: z.string() });
  const codeOf = (text: string) => {
    try {
      decodeBatchRequest(text, shared);
      return undefined;
    } catch (error) {
      return (error as { code: ErrorCode }).code;
    }
  };

  it('reads back what it wrote: each call with its request id and its shared value', () => {
    const text = encodeBatchRequest(
      ['{"form":"a"}', '{"form":"b"}'],
      [
        { requestId: 'r1', sharedAt: 1, callJson: '{"say":"one"}' },
        { requestId: 'r2', sharedAt: undefined, callJson: '{"say":"two"}' },
        { requestId: 'r3', sharedAt: 1, callJson: '{"say":"three"}' },
      ],
    );
    const items = decodeBatchRequest(text, shared);
    expect(items).toEqual([
      { requestId: 'r1', call: { say: 'one' }, shared: { form: 'b' } },
      { requestId: 'r2', call: { say: 'two' }, shared: undefined },
      { requestId: 'r3', call: { say: 'three' }, shared: { form: 'b' } },
    ]);
    // One object for the calls that share it.
    expect(items[0].shared).toBe(items[2].shared);
  });

  it('refuses a request that is not a batch: not JSON, no calls, too many', () => {
    const call = '{"requestId":"r","call":{}}';
    expect(codeOf('{')).toBe(ErrorCode.ValidationError);
    expect(codeOf('{"shared":[],"items":[]}')).toBe(ErrorCode.ValidationError);
    expect(
      codeOf(
        `{"shared":[],"items":[${Array(batchLimits.items + 1)
          .fill(call)
          .join(',')}]}`,
      ),
    ).toBe(ErrorCode.ValidationError);
    expect(codeOf(`{"shared":[{"form":"a"}],"items":[${call}]}`)).toBeUndefined();
  });

  it('fails only the calls whose shared value is refused or missing', () => {
    const items = decodeBatchRequest(
      '{"shared":[{"form":1},{"form":"b"}],"items":[' +
        '{"requestId":"r1","shared":0,"call":{}},{"requestId":"r2","shared":1,"call":{}},' +
        '{"requestId":"r3","shared":7,"call":{}}]}',
      shared,
    );
    expect(items.map((item) => item.sharedInvalid?.code)).toEqual([
      ErrorCode.ValidationError,
      undefined,
      ErrorCode.ValidationError,
    ]);
    expect(items[1].shared).toEqual({ form: 'b' });
  });

  it('packs answers into messages of at most the limit, in their order', () => {
    const answers = ['{"i":0,"reply":"aaaa"}', '{"i":1,"reply":"bbbb"}', '{"i":2,"reply":"cccc"}'];
    const messages = packBatchAnswers(answers, 50);
    expect(messages).toEqual([
      '{"answers":[{"i":0,"reply":"aaaa"},{"i":1,"reply":"bbbb"}]}',
      '{"answers":[{"i":2,"reply":"cccc"}]}',
    ]);
    expect(
      messages.flatMap((text) => ('answers' in (decodeBatchAnswers(text) as object) ? [text] : [])),
    ).toHaveLength(2);
    expect(decodeBatchAnswers('{"answers":[null,{"i":0,"reply":1}]}')).toEqual({
      answers: [{ i: 0, reply: 1 }],
    });
    expect(decodeBatchAnswers('{"err":{"code":"X"}}')).toEqual({ err: { code: 'X' } });
    expect(decodeBatchAnswers('nonsense')).toEqual({ err: undefined });
  });
});
