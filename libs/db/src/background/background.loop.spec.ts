import { BackgroundRounds } from './background-rounds';

// A loop whose rounds each wait until the test lets them end.
function heldRounds() {
  const ends: (() => void)[] = [];
  let rounds = 0;
  const loop = new BackgroundRounds(60_000, () => {
    rounds += 1;
    return new Promise<void>((resolve) => ends.push(resolve));
  });
  return { loop, rounds: () => rounds, endRound: () => ends.shift()?.() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BackgroundLoop', () => {
  it('runs one more round when asked during a round, however often it was asked', async () => {
    const { loop, rounds, endRound } = heldRounds();
    const first = loop.runOnce();
    const second = loop.runOnce();
    const third = loop.runOnce();
    expect(second).toBe(third);
    expect(rounds()).toBe(1);
    endRound();
    await first;
    await settle();
    expect(rounds()).toBe(2);
    let secondDone = false;
    void second.then(() => (secondDone = true));
    await settle();
    expect(secondDone).toBe(false);
    endRound();
    await second;
    await settle();
    expect(rounds()).toBe(2);
  });

  it('stops after the round under way, starting no other', async () => {
    const { loop, rounds, endRound } = heldRounds();
    void loop.runOnce();
    void loop.runOnce();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    endRound();
    await stopping;
    expect(rounds()).toBe(1);
    await loop.runOnce();
    expect(rounds()).toBe(1);
  });

  it('runs a round on each tick of its interval', async () => {
    jest.useFakeTimers();
    try {
      let rounds = 0;
      const loop = new BackgroundRounds(1000, () => Promise.resolve(void (rounds += 1)));
      loop.start();
      await jest.advanceTimersByTimeAsync(3000);
      expect(rounds).toBe(3);
      await loop.stop();
      await jest.advanceTimersByTimeAsync(3000);
      expect(rounds).toBe(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
