import { Slots } from './slots';

// A promise opened from outside.
function gate(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('Slots', () => {
  it('runs at most its size at once, the waiting ones in arrival order', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((gate, index) =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(index);
        await gate.promise;
        running--;
        return index;
      }),
    );
    await Promise.resolve();
    expect(order).toEqual([0, 1]);
    gates[1].resolve();
    await runs[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([0, 1, 2]);
    gates.forEach((gate) => gate.resolve());
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('gives the slot back when a run throws', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(slots.run(() => Promise.resolve('sent'))).resolves.toBe('sent');
  });
});

describe('Slots with a longest wait', () => {
  it('refuses a run that waited too long, which never runs, and serves the others', async () => {
    const slots = new Slots(1, { maxWaitMs: 20, tooLong: () => new Error('too long') });
    const first = gate();
    const running = slots.run(() => first.promise);
    let ran = false;
    const late = slots.run(() => {
      ran = true;
      return Promise.resolve();
    });
    await expect(late).rejects.toThrow('too long');
    first.resolve();
    await running;
    expect(ran).toBe(false);
    expect(await slots.run(() => Promise.resolve('next'))).toBe('next');
  });
});
