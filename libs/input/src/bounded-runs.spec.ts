import { leadingWithin, runsWithin } from './bounded-runs';

describe('leadingWithin and runsWithin', () => {
  const length = (text: string) => text.length;

  it('counts the leading items within both bounds, always one', () => {
    expect(leadingWithin(['aa', 'bb', 'cc'], length, 4)).toBe(2);
    expect(leadingWithin(['aa', 'bb', 'cc'], length, 100, 2)).toBe(2);
    expect(leadingWithin(['toolong', 'b'], length, 3)).toBe(1);
    expect(leadingWithin([], length, 3)).toBe(0);
  });

  it('cuts items into consecutive runs within the size, a large item alone', () => {
    expect(runsWithin(['aa', 'bb', 'toolong', 'c', 'dd'], length, 4)).toEqual([
      ['aa', 'bb'],
      ['toolong'],
      ['c', 'dd'],
    ]);
    expect(runsWithin([], length, 4)).toEqual([]);
  });
});
