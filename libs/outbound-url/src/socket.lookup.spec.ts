import { pinnedLookup } from './socket.lookup';

describe('pinnedLookup', () => {
  const lookup = pinnedLookup(['203.0.113.9', '2001:db8::9']);
  const ask = (options: Parameters<typeof lookup>[1]) =>
    new Promise<unknown[]>((resolve) =>
      lookup('anything.example', options, (...answer: unknown[]) => resolve(answer)),
    );

  it('answers the checked addresses, whatever the name', async () => {
    expect(await ask({ all: true })).toEqual([
      null,
      [
        { address: '203.0.113.9', family: 4 },
        { address: '2001:db8::9', family: 6 },
      ],
    ]);
    expect(await ask({})).toEqual([null, '203.0.113.9', 4]);
    expect(await ask({ family: 6 })).toEqual([null, '2001:db8::9', 6]);
  });

  it('fails when no checked address is of the family asked for', async () => {
    const only6 = pinnedLookup(['2001:db8::9']);
    const [refused] = await new Promise<unknown[]>((resolve) =>
      only6('x', { family: 4 }, (...answer: unknown[]) => resolve(answer)),
    );
    expect((refused as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});
