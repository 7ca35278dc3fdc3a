import { jsonStringMemberPattern } from './json-text-pattern';

describe('jsonStringMemberPattern', () => {
  it('matches the member as JSON.stringify writes it, with LIKE wildcards escaped', () => {
    expect(jsonStringMemberPattern('token', 'ab_c%')).toBe('%"token":"ab\\_c\\%"%');
  });

  it('escapes what JSON escapes, so a quote in the value cannot end the match early', () => {
    expect(jsonStringMemberPattern('token', 'a"b\\')).toBe('%"token":"a\\\\"b\\\\\\\\"%');
  });
});
