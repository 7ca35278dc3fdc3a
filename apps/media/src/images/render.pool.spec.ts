import { DomainError, ErrorCode, httpStatusByCode } from '@formline/errors';
import { RenderPool } from './render.pool';

// A job that runs until the test lets it finish.
function heldJob<T>(value: T) {
  let finish: () => void = () => undefined;
  const started = { count: 0 };
  const work = () => {
    started.count += 1;
    return new Promise<T>((resolve) => (finish = () => resolve(value)));
  };
  return { work, started, finish: () => finish() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('RenderPool', () => {
  describe('once (single flight)', () => {
    it('runs a key’s job once for every ask that arrives while it runs, and gives each its result', async () => {
      const pool = new RenderPool({ concurrency: 2, maxQueued: 4 });
      const job = heldJob(Buffer.from('variant'));
      const asks = Array.from({ length: 20 }, () => pool.once('images/a/choice-default', job.work));
      await tick();
      expect(job.started.count).toBe(1);
      expect(pool.stats().flights).toBe(1);
      job.finish();
      const results = await Promise.all(asks);
      expect(results.every((bytes) => bytes.toString() === 'variant')).toBe(true);
      expect(job.started.count).toBe(1);
      expect(pool.stats().flights).toBe(0);
    });

    it('keeps keys apart, and runs a key again once its flight is over', async () => {
      const pool = new RenderPool({ concurrency: 2, maxQueued: 4 });
      let runs = 0;
      const work = () => Promise.resolve((runs += 1));
      await Promise.all([pool.once('a', work), pool.once('b', work)]);
      expect(runs).toBe(2);
      await pool.once('a', work);
      expect(runs).toBe(3);
    });

    it('gives every ask of a failed flight its error, and lets the next ask try again', async () => {
      const pool = new RenderPool({ concurrency: 1, maxQueued: 1 });
      let fail = true;
      const work = () => (fail ? Promise.reject(new Error('damaged')) : Promise.resolve('ok'));
      const asks = [pool.once('k', work), pool.once('k', work)];
      await expect(Promise.all(asks)).rejects.toThrow('damaged');
      await expect(asks[1]).rejects.toThrow('damaged');
      fail = false;
      await expect(pool.once('k', work)).resolves.toBe('ok');
    });
  });

  describe('run (bounded)', () => {
    it('runs at most `concurrency` jobs at once, the others in turn', async () => {
      const pool = new RenderPool({ concurrency: 2, maxQueued: 10 });
      let running = 0;
      let most = 0;
      const job = async () => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
      };
      await Promise.all(Array.from({ length: 8 }, () => pool.run(job)));
      expect(most).toBe(2);
      expect(pool.stats()).toEqual({ running: 0, waiting: 0, flights: 0 });
    });

    it('refuses a job with 503 SERVICE_UNAVAILABLE once the queue is full, says it is saturated, and takes work again when a turn frees', async () => {
      const pool = new RenderPool({ concurrency: 1, maxQueued: 2 });
      const first = heldJob('first');
      const running = pool.run(first.work);
      const queued = [pool.run(() => Promise.resolve('second')), pool.run(() => Promise.resolve('third'))];
      expect(pool.stats()).toMatchObject({ running: 1, waiting: 2 });
      expect(pool.saturation()).toMatch(/as many images as it can/);

      const refused = await pool.run(() => Promise.resolve('fourth')).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      expect((refused as DomainError).code).toBe(ErrorCode.ServiceUnavailable);
      expect(httpStatusByCode[(refused as DomainError).code]).toBe(503);
      expect((refused as DomainError).message).toMatch(/Retry-After/);

      first.finish();
      expect(await Promise.all([running, ...queued])).toEqual(['first', 'second', 'third']);
      expect(pool.saturation()).toBeUndefined();
      await expect(pool.run(() => Promise.resolve('fifth'))).resolves.toBe('fifth');
    });

    it('gives the turn of a failed job to the next one', async () => {
      const pool = new RenderPool({ concurrency: 1, maxQueued: 1 });
      const failing = pool.run(() => Promise.reject(new Error('damaged')));
      const next = pool.run(() => Promise.resolve('next'));
      await expect(failing).rejects.toThrow('damaged');
      await expect(next).resolves.toBe('next');
      expect(pool.stats()).toEqual({ running: 0, waiting: 0, flights: 0 });
    });
  });
});
