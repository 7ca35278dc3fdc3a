import type { ResponseResource } from '@formline/contracts';
import { inputLimits } from '@formline/input';
import { cutByBytes } from './response-listing.service';

// A listing page holds the responses that fit in inputLimits.pageBytes,
// always one, counted from the first read: the start of the page, or its
// end when it was read from an `after` cursor (nearest the cursor).
describe('cutByBytes', () => {
  const third = Math.floor(inputLimits.pageBytes / 3);
  const items = ['a', 'b', 'c', 'd'].map(
    (token) => ({ token, answers: ['x'.repeat(third)] }) as unknown as ResponseResource,
  );
  const tokens = (page: ResponseResource[]) => page.map((item) => item.token);

  it('keeps the first items that fit, in their order', () => {
    expect(tokens(cutByBytes(items, false))).toEqual(['a', 'b']);
  });

  it('keeps the last items that fit when the page was read from its end, in their order', () => {
    expect(tokens(cutByBytes(items, true))).toEqual(['c', 'd']);
  });

  it('keeps one item larger than the page, and all of a page that fits', () => {
    const huge = { token: 'h', answers: ['x'.repeat(inputLimits.pageBytes)] } as unknown as ResponseResource;
    expect(tokens(cutByBytes([huge, ...items], false))).toEqual(['h']);
    expect(tokens(cutByBytes([...items, huge], true))).toEqual(['h']);
    expect(tokens(cutByBytes(items.slice(0, 2), true))).toEqual(['a', 'b']);
  });
});
