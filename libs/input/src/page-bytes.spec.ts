import { inputLimits } from './input-limits';
import { itemsWithinPageBytes } from './page-bytes';

// A page holds the items that fit in inputLimits.pageBytes, always one,
// counted from the first read: the start of the page, or its end when it was
// read from an `after` cursor (nearest the cursor).
describe('itemsWithinPageBytes', () => {
  const third = Math.floor(inputLimits.pageBytes / 3);
  const items = ['a', 'b', 'c', 'd'].map((token) => ({ token, answers: ['x'.repeat(third)] }));
  const tokens = (page: Array<{ token: string }>) => page.map((item) => item.token);

  it('keeps the first items that fit, in their order', () => {
    expect(tokens(itemsWithinPageBytes(items, false))).toEqual(['a', 'b']);
  });

  it('keeps the last items that fit when the page was read from its end, in their order', () => {
    expect(tokens(itemsWithinPageBytes(items, true))).toEqual(['c', 'd']);
  });

  it('keeps one item larger than the page, and all of a page that fits', () => {
    const huge = { token: 'h', answers: ['x'.repeat(inputLimits.pageBytes)] };
    expect(tokens(itemsWithinPageBytes([huge, ...items], false))).toEqual(['h']);
    expect(tokens(itemsWithinPageBytes([...items, huge], true))).toEqual(['h']);
    expect(tokens(itemsWithinPageBytes(items.slice(0, 2), true))).toEqual(['a', 'b']);
  });
});
