import { textProblem } from './caller-text';
import { findCallerJsonProblem } from './caller-json';
import { offsetBeyondDepth } from './json-depth';

describe('caller text', () => {
  it.each([
    ['a\u0000b', 'NUL'],
    ['x\ud800', 'surrogate'],
    ['\udc00x', 'surrogate'],
    ['\ud800\ud800\udc00', 'surrogate'],
  ])('refuses %j', (text, word) => {
    expect(textProblem(text)).toContain(word);
  });

  it.each(['', 'plain', 'emoji \ud83d\ude00 ok', 'é ü \u2028'])('accepts %j', (text) => {
    expect(textProblem(text)).toBeUndefined();
  });
});

describe('JSON nesting depth', () => {
  it('finds where text goes deeper than allowed, ignoring brackets in strings', () => {
    expect(offsetBeyondDepth('[[[]]]', 3)).toBe(-1);
    expect(offsetBeyondDepth('[[[[]]]]', 3)).toBe(3);
    expect(offsetBeyondDepth('{"a":{"a":{"a":{}}}}', 3)).toBe(15);
    expect(offsetBeyondDepth('["[[[[[[", "\\"[[[["]', 1)).toBe(-1);
    expect(offsetBeyondDepth('['.repeat(100_000), 32)).toBe(32);
  });
});

describe('caller JSON', () => {
  it.each([
    [JSON.parse('{"a":{"__proto__":{"x":1}}}'), 'a.__proto__'],
    [{ a: [{ constructor: 1 }] }, 'a[0].constructor'],
    [{ a: [{ b: 'x\u0000' }] }, 'a[0].b'],
    [{ 'x\ud800': 1 }, ''],
    [[[[[1]]]], '[0][0][0]'],
  ])('refuses %j at %s', (value, field) => {
    expect(findCallerJsonProblem(value, 3)?.field).toBe(field);
  });

  it('accepts ordinary JSON', () => {
    expect(findCallerJsonProblem({ a: [1, 'b', { c: null, d: true }] }, 3)).toBeUndefined();
  });
});
