import { DomainError, ErrorCode } from '@formline/errors';
import type { FastifyRequest } from 'fastify';
import { checkRequestInputs, parseJsonBody } from './request-hygiene';

const json = (text: string, contentType = 'application/json') =>
  parseJsonBody({ headers: { 'content-type': contentType } }, Buffer.from(text, 'utf8'));

const refusal = (run: () => unknown): DomainError => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('the JSON body parser', () => {
  it('parses UTF-8 JSON', () => {
    expect(json('{"a":[1,"é"]}', 'application/json; charset=UTF-8')).toEqual({ a: [1, 'é'] });
  });

  it('refuses another charset with 415', () => {
    expect(refusal(() => json('{}', 'application/json; charset=utf-16')).code).toBe(
      ErrorCode.UnsupportedMediaType,
    );
  });

  it('refuses bytes that are not UTF-8', () => {
    const error = refusal(() =>
      parseJsonBody({ headers: {} }, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])),
    );
    expect(error.code).toBe(ErrorCode.ValidationError);
  });

  it.each(['['.repeat(100_000), '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000)])(
    'refuses deep nesting before parsing',
    (text) => {
      expect(refusal(() => json(text)).description).toContain('deeper than 32');
    },
  );
});

describe('the request checks', () => {
  const request = (parts: Partial<Record<'params' | 'query' | 'headers' | 'body', unknown>>) =>
    ({ params: {}, query: {}, headers: {}, ...parts }) as unknown as FastifyRequest;
  const where = (parts: Parameters<typeof request>[0]) =>
    refusal(() => checkRequestInputs(request(parts))).details?.map((d) => `${d.in}:${d.field}`);

  it.each([
    [{ params: { form_id: 'a\u0000' } }, 'path:form_id'],
    [{ params: { form_id: 'x'.repeat(256) } }, 'path:form_id'],
    [{ query: { search: 'x\ud800' } }, 'query:search'],
    [{ query: Object.fromEntries([['__proto__', 'x']]) }, 'query:__proto__'],
    [{ headers: { 'idempotency-key': 'a\u0000' } }, 'header:idempotency-key'],
    [{ body: JSON.parse('{"answers":[{"text":"\\ud800"}]}') }, 'body:answers[0].text'],
    [{ body: JSON.parse('{"settings":{"__proto__":{}}}') }, 'body:settings.__proto__'],
  ])('refuses %j', (parts, expected) => {
    expect(where(parts)).toEqual([expected]);
  });

  it('accepts ordinary requests', () => {
    expect(() =>
      checkRequestInputs(
        request({ params: { form_id: 'abc' }, query: { page: '1' }, body: { a: ['ok 🙂'] } }),
      ),
    ).not.toThrow();
  });
});
