import { request } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { installLoadShedding, LoadShedder } from './load-shedding';

describe('LoadShedder', () => {
  it('takes requests up to the in-flight bound, then refuses until one is released', () => {
    const shedder = new LoadShedder({ maxInFlight: 2, maxEventLoopDelayMs: 0 });
    expect(shedder.admit()).toBeUndefined();
    expect(shedder.admit()).toBeUndefined();
    expect(shedder.admit()).toMatch(/as many requests as it can/);
    shedder.release();
    expect(shedder.admit()).toBeUndefined();
  });

  it('refuses while the sampled event-loop delay is over the bound, and takes again once it is back', () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 100 }, () => 0);
    shedder.sample(250);
    expect(shedder.admit()).toMatch(/short of CPU/);
    shedder.sample(40);
    expect(shedder.admit()).toBeUndefined();
    shedder.stop();
  });

  it('sheds the routes of a saturated resource, and only those, until it has room again', () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 0 });
    let saturation: string | undefined = 'The server is processing as many images as it can right now.';
    shedder.watch({ routes: ['GET /images/:image_id/:kind/:size'], saturation: () => saturation });
    expect(shedder.admit('GET', '/images/:image_id/:kind/:size')).toMatch(/as many images/);
    expect(shedder.admit('DELETE', '/images/:image_id/:kind/:size')).toBeUndefined();
    expect(shedder.admit('GET', '/images/:image_id')).toBeUndefined();
    expect(shedder.admit('GET', '/forms/:form_id')).toBeUndefined();
    expect(shedder.admit()).toBeUndefined();
    saturation = undefined;
    expect(shedder.admit('GET', '/images/:image_id/:kind/:size')).toBeUndefined();
  });

  it('has no bound when both limits are 0', () => {
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 0 });
    for (let i = 0; i < 1_000; i += 1) expect(shedder.admit()).toBeUndefined();
  });
});

describe('installLoadShedding', () => {
  let app: FastifyInstance;
  let unblock: () => void = () => undefined;

  beforeEach(async () => {
    app = Fastify();
    installLoadShedding(app, new LoadShedder({ maxInFlight: 1, maxEventLoopDelayMs: 0 }));
    app.get('/slow', async () => {
      await new Promise<void>((resolve) => (unblock = resolve));
      return { ok: true };
    });
    app.get('/fast', () => Promise.resolve({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterEach(() => app.close());

  const url = (path: string) => {
    const address = app.server.address() as { port: number };
    return `http://127.0.0.1:${address.port}${path}`;
  };
  // Asks /fast until it answers `status` (the slow request's slot taken, or freed again).
  const untilStatus = async (status: number) => {
    for (let tries = 0; tries < 200; tries += 1) {
      const answer = await fetch(url('/fast'));
      if (answer.status === status) return answer;
      await answer.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`/fast never answered ${status}`);
  };

  it('answers 503 with Retry-After and the error body over the bound, and serves again once the slow one is done', async () => {
    const slow = fetch(url('/slow'));
    const refused = await untilStatus(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      description: expect.stringMatching(/as many requests as it can/),
    });
    unblock();
    expect((await slow).status).toBe(200);
    expect((await fetch(url('/fast'))).status).toBe(200);
  });

  it('frees the slot of a caller that hung up before its answer', async () => {
    const slow = request(url('/slow'));
    const hungUp = new Promise((resolve) => slow.on('error', () => resolve('hung up')));
    slow.end();
    await untilStatus(503);
    slow.destroy();
    expect(await hungUp).toBe('hung up');
    // The handler is still waiting: the slot is free because the socket closed.
    expect((await untilStatus(200)).status).toBe(200);
    unblock();
  });
});

describe('installLoadShedding with a watched resource', () => {
  it('answers 503 on the routes of a saturated resource before their handler runs, and serves the others', async () => {
    const app = Fastify();
    let handled = 0;
    const shedder = new LoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 0 });
    shedder.watch({ routes: ['GET /images/:image_id'], saturation: () => 'Busy with images.' });
    installLoadShedding(app, shedder);
    app.get('/images/:image_id', () => Promise.resolve({ handled: (handled += 1) }));
    app.get('/fast', () => Promise.resolve({ ok: true }));
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const shed = await fetch(`${base}/images/abc`);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('1');
      expect(await shed.json()).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        description: expect.stringMatching(/Busy with images/),
      });
      expect(handled).toBe(0);
      expect((await fetch(`${base}/fast`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
