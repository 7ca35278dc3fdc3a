import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  let now = 1_000;
  const clock = () => now;
  const loader = (value: string) => jest.fn(() => Promise.resolve(value));

  beforeEach(() => (now = 1_000));

  it('answers from the cache until the time to live ends, then loads again', async () => {
    const cache = new TtlCache<string>(100, 10, clock);
    const load = loader('a');
    expect(await cache.getOrLoad('k', load)).toBe('a');
    now += 99;
    expect(await cache.getOrLoad('k', load)).toBe('a');
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    expect(await cache.getOrLoad('k', load)).toBe('a');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('ends an entry sooner when the value says so (a token expiring), and keeps none already over', async () => {
    const cache = new TtlCache<string>(1_000, 10, clock);
    const load = loader('t');
    await cache.getOrLoad('k', load, () => now + 10);
    now += 10;
    expect(cache.get('k')).toBeUndefined();
    await cache.getOrLoad('past', load, () => now - 1);
    expect(cache.get('past')).toBeUndefined();
  });

  it('drops the least recently used entry beyond its size', async () => {
    const cache = new TtlCache<string>(1_000, 2, clock);
    await cache.getOrLoad('a', loader('a'));
    await cache.getOrLoad('b', loader('b'));
    cache.get('a');
    await cache.getOrLoad('c', loader('c'));
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['a', undefined, 'c']);
  });

  it('drops the least recently used while its values weigh more than its bytes, and keeps none heavier alone', async () => {
    const cache = new TtlCache<string>(
      1_000,
      { maxEntries: 10, maxBytes: 10, weigh: (value) => value.length },
      clock,
    );
    await cache.getOrLoad('a', loader('aaaa'));
    await cache.getOrLoad('b', loader('bbbb'));
    cache.get('a');
    await cache.getOrLoad('c', loader('cccc'));
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['aaaa', undefined, 'cccc']);
    expect(cache.heldBytes).toBe(8);
    // Answered, not kept: it alone is over the bound.
    expect(await cache.getOrLoad('huge', loader('x'.repeat(11)))).toBe('x'.repeat(11));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.heldBytes).toBe(8);
    // What expires, is replaced, deleted or cleared is no longer counted.
    cache.set('a', 'aa');
    expect(cache.heldBytes).toBe(6);
    now += 1_000;
    expect(cache.get('c')).toBeUndefined();
    expect(cache.heldBytes).toBe(2);
    cache.deleteWhere(() => true);
    expect(cache.heldBytes).toBe(0);
    cache.set('d', 'dddd');
    cache.clear();
    expect(cache.heldBytes).toBe(0);
  });

  it('keeps the order of use when the same entry is read again and again', async () => {
    const cache = new TtlCache<string>(1_000, 2, clock);
    await cache.getOrLoad('a', loader('a'));
    await cache.getOrLoad('b', loader('b'));
    cache.get('a');
    cache.get('a');
    cache.get('b');
    cache.get('b');
    await cache.getOrLoad('c', loader('c'));
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'b', 'c']);
  });

  it('does not keep a value loaded while an invalidation happened: it may predate the change', async () => {
    const cache = new TtlCache<string>(1_000, 10, clock);
    let finish!: (value: string) => void;
    const pending = cache.getOrLoad('k', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.delete('k');
    finish('old');
    expect(await pending).toBe('old');
    expect(cache.get('k')).toBeUndefined();
  });

  it('forgets what deleteWhere and clear name', async () => {
    const cache = new TtlCache<{ account: string }>(1_000, 10, clock);
    await cache.getOrLoad('1', () => Promise.resolve({ account: 'x' }));
    await cache.getOrLoad('2', () => Promise.resolve({ account: 'y' }));
    cache.deleteWhere((value) => value.account === 'x');
    expect([cache.get('1'), cache.get('2')]).toEqual([undefined, { account: 'y' }]);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('keeps nothing with a time to live of 0', async () => {
    const cache = new TtlCache<string>(0, 10, clock);
    const load = loader('a');
    await cache.getOrLoad('k', load);
    await cache.getOrLoad('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
