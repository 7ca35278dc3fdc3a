import fc from 'fast-check';
import { isEmailAddress } from './answer-formats';

describe('isEmailAddress', () => {
  it.each(['a@b.c', 'first.last@example.co.uk', 'x+y@sub.domain.org', 'a@b.c.'])('accepts %j', (email) => {
    expect(isEmailAddress(email)).toBe(true);
  });

  it.each(['', 'a', 'a@b', '@b.c', 'a@.c', 'a@b.', 'a@@b.c', 'a b@c.d', 'a@b.c@d.e', 'a@b\n.c'])(
    'refuses %j',
    (email) => {
      expect(isEmailAddress(email)).toBe(false);
    },
  );

  // The pattern it replaces, which backtracks quadratically: same answers on
  // every short string, so nothing that was accepted is refused now.
  // eslint-disable-next-line regexp/no-super-linear-backtracking
  const former = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

  it('answers as the former pattern did', () => {
    const alphabet = fc.constantFrom('a', 'b', '.', '@', ' ', '\t', '-', 'é');
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 12 }), (text) => {
        expect(isEmailAddress(text)).toBe(former.test(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('decides the answers that made the former pattern quadratic', () => {
    // Speed is shown by the e2e test (the service stays responsive), not timed here.
    const hostile = `a@${'.'.repeat(100_000)}@`;
    expect(isEmailAddress(hostile)).toBe(false);
    expect(isEmailAddress(`a@${'.'.repeat(100_000)}`)).toBe(true);
  });
});
