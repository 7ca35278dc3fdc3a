import { bearerTokenFrom } from './bearer-token';

describe('bearerTokenFrom', () => {
  it.each(['bearer abc', 'Bearer abc', 'BEARER abc', '  bearer   abc  '])(
    'reads the token from %p',
    (header) => {
      expect(bearerTokenFrom(header)).toBe('abc');
    },
  );

  it.each([undefined, '', 'bearer', 'bearer ', 'Basic abc', 'bearer a b', 'bearerabc', ['bearer abc']])(
    'finds no token in %p',
    (header) => {
      expect(bearerTokenFrom(header)).toBeUndefined();
    },
  );
});
