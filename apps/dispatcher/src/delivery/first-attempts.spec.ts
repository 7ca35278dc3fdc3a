import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import {
  type DeliveryQueue,
  type DeliveryRepository,
  DeliveryStatus,
  type FirstAttemptsJob,
  type StartedDelivery,
} from '@formline/webhook-delivery';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import type { Redis } from 'ioredis';
import type { DispatcherConfig } from '@formline/app-config';
import { DeliveryAttempts } from './delivery.attempts';
import { FirstAttemptsWorker } from './first-attempts.worker';

// A first-attempts job: every delivery's first attempt at once, and each one
// that did not succeed handed to its own job the moment its attempt ends,
// with its wait (and its outcome, when the database did not take it). A fake
// repository stands for PostgreSQL (it begins an attempt as the SQL does:
// a first one only while there was none) and a fake queue for Redis; the
// receiver is a real HTTP server answering each delivery's path with the
// status it names.
describe('FirstAttemptsWorker', () => {
  let server: Server;
  let base: string;
  const received: { url: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = createServer((req, res) => {
      received.push({ url: req.url ?? '', headers: req.headers });
      req.resume();
      req.on('end', () => res.writeHead(Number(req.url?.split('/')[2] ?? 200)).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (received.length = 0));

  const config = {
    WEBHOOK_TIMEOUT_MS: 5000,
    DISPATCHER_LOCK_MS: 2000,
    DISPATCHER_CONCURRENCY: 2,
    WEBHOOK_RETRY_SCHEDULE_MS: [500, 1000],
    WEBHOOK_RETRY_JITTER: 0,
    WEBHOOK_RETRY_AFTER_MAX_MS: 60_000,
  } as unknown as DispatcherConfig;

  interface FakeDelivery {
    status: number;
    attemptCount?: number;
    nextAttemptAt?: Date;
    inFlightUntil?: Date;
  }

  // Deliveries by id; `answer` the receiver's status for it.
  function fakeRepository(
    deliveries: Record<string, FakeDelivery>,
    recorded: () => Promise<boolean> = () => Promise.resolve(true),
  ) {
    const starts: { deliveryId: string; firstOnly?: boolean }[] = [];
    const startAttempt = (
      deliveryId: string,
      options: { firstOnly?: boolean },
    ): Promise<StartedDelivery | null> => {
      starts.push({ deliveryId, firstOnly: options.firstOnly });
      const delivery = deliveries[deliveryId];
      if (!delivery) return Promise.resolve(null);
      const before = delivery.attemptCount ?? 0;
      const begins = !options.firstOnly || before === 0;
      if (begins) delivery.attemptCount = before + 1;
      return Promise.resolve({
        delivery: {
          id: deliveryId,
          eventId: `e-${deliveryId}`,
          body: '{}',
          status: DeliveryStatus.pending,
          attemptCount: begins ? before + 1 : before,
          nextAttemptAt: delivery.nextAttemptAt ?? null,
          inFlightUntil: delivery.inFlightUntil ?? null,
          createdAt: new Date(),
          webhook: {
            id: 'w1',
            url: `${base}/${deliveryId}/${delivery.status}`,
            enabled: true,
            verifySsl: true,
            secretSealed: null,
          },
        },
        attempt: begins ? { attemptId: `a-${deliveryId}`, attemptNumber: before + 1 } : null,
      });
    };
    const repository = { startAttempt, succeed: recorded, retryLater: recorded, giveUp: recorded };
    return { repository: repository as unknown as DeliveryRepository, starts };
  }

  type HandOver = DeliveryQueue['handOver'];
  function workerWith(
    repository: DeliveryRepository,
    handOver: HandOver,
    concurrency = 2,
  ): FirstAttemptsWorker {
    const settings = { ...config, DISPATCHER_CONCURRENCY: concurrency };
    const attempts = new DeliveryAttempts(
      repository,
      {} as never,
      new OutboundUrlPolicy(['127.0.0.1']),
      settings,
    );
    // The queue, in Redis: here a fake of its hand-over.
    return new FirstAttemptsWorker(attempts, {} as Redis, { handOver } as DeliveryQueue, settings);
  }

  const job = (...ids: string[]): FirstAttemptsJob => ({
    deliveries: ids.map((id) => ({
      deliveryId: id,
      eventId: `e-${id}`,
      webhookId: 'w1',
      requestId: `req-${id}`,
    })),
  });
  const handedOver = (handOver: jest.Mock) =>
    handOver.mock.calls.flatMap(
      ([items]) => items as { deliveryId: string; delayMs: number; unrecorded?: unknown }[],
    );

  it('sends each first attempt under its submission’s request id, asking for a first attempt only, and hands over only those that did not succeed', async () => {
    const { repository, starts } = fakeRepository({
      d1: { status: 200 },
      d2: { status: 500 },
      d3: { status: 204 },
      d4: { status: 410 },
    });
    const handOver = jest.fn((() => Promise.resolve()) as HandOver);
    const before = Date.now();
    await workerWith(repository, handOver).deliverFirstAttempts(job('d1', 'd2', 'd3', 'd4'));
    expect(received.map((one) => one.url).sort()).toEqual(['/d1/200', '/d2/500', '/d3/204', '/d4/410']);
    expect(received.find((one) => one.url === '/d2/500')?.headers['x-request-id']).toBe('req-d2');
    expect(starts.every((start) => start.firstOnly === true)).toBe(true);
    // 410 gives up (the webhook is gone): nothing more to do for it.
    expect(handedOver(handOver)).toEqual([
      expect.objectContaining({ deliveryId: 'd2', eventId: 'e-d2', webhookId: 'w1', requestId: 'req-d2' }),
    ]);
    // Due the schedule's first wait after its attempt ended, counted then.
    const [handed] = handedOver(handOver);
    expect(handed.delayMs).toBeGreaterThan(500 - (Date.now() - before) - 1);
    expect(handed.delayMs).toBeLessThanOrEqual(500);
  });

  it('hands a delivery over the moment its attempt ends, not when the whole job does', async () => {
    let open = 0;
    const slow = createServer((req, res) => {
      open++;
      req.resume();
      // The second delivery's receiver answers late.
      setTimeout(
        () => res.writeHead(req.url?.includes('slow') ? 200 : 500).end(),
        req.url?.includes('slow') ? 300 : 0,
      );
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const { repository } = fakeRepository({ fails: { status: 500 }, slow: { status: 200 } });
    const startAttempt = repository.startAttempt.bind(repository);
    repository.startAttempt = async (id, options) => {
      const started = await startAttempt(id, options);
      if (started) started.delivery.webhook.url = `${url}/${id}`;
      return started;
    };
    const handedAt: number[] = [];
    const started = Date.now();
    await workerWith(repository, () => {
      handedAt.push(Date.now() - started);
      return Promise.resolve();
    }).deliverFirstAttempts(job('fails', 'slow'));
    await new Promise((resolve) => slow.close(resolve));
    expect(open).toBe(2);
    expect(handedAt).toHaveLength(1);
    expect(handedAt[0]).toBeLessThan(250);
  });

  it('hands over an outcome the database did not take at once, for its own job to record without sending again', async () => {
    const { repository } = fakeRepository({ d1: { status: 200 } }, () =>
      Promise.reject(new Error('PostgreSQL is unavailable')),
    );
    const handOver = jest.fn((() => Promise.resolve()) as HandOver);
    await workerWith(repository, handOver).deliverFirstAttempts(job('d1'));
    expect(received.map((one) => one.url)).toEqual(['/d1/200']);
    expect(handedOver(handOver)).toEqual([
      expect.objectContaining({
        deliveryId: 'd1',
        delayMs: 500,
        unrecorded: expect.objectContaining({ attemptId: 'a-d1', decision: { kind: 'succeeded' } }),
      }),
    ]);
  });

  it('leaves a delivery whose first attempt another run began just now to that run', async () => {
    // The row showed no attempt as the statement began; the locked row had one.
    const { repository } = fakeRepository({ d1: { status: 200 } });
    const startAttempt = repository.startAttempt.bind(repository);
    repository.startAttempt = async (id, options) => {
      const started = await startAttempt(id, { ...options, firstOnly: false });
      return started && { delivery: { ...started.delivery, attemptCount: 0 }, attempt: null };
    };
    const handOver = jest.fn((() => Promise.resolve()) as HandOver);
    await workerWith(repository, handOver).deliverFirstAttempts(job('d1'));
    expect(received).toEqual([]);
    expect(handOver).not.toHaveBeenCalled();
  });

  it('sends nothing for a delivery attempted already, and hands it over for when its next attempt is due, never before one in flight ends', async () => {
    const soon = new Date(Date.now() + 30_000);
    const inFlight = new Date(Date.now() + 40_000);
    const { repository } = fakeRepository({
      retrying: { status: 500, attemptCount: 1, nextAttemptAt: soon },
      sending: { status: 500, attemptCount: 1, inFlightUntil: inFlight },
    });
    const handOver = jest.fn((() => Promise.resolve()) as HandOver);
    await workerWith(repository, handOver).deliverFirstAttempts(job('retrying', 'sending', 'gone'));
    expect(received).toEqual([]);
    const byId = Object.fromEntries(handedOver(handOver).map((item) => [item.deliveryId, item.delayMs]));
    expect(Object.keys(byId).sort()).toEqual(['retrying', 'sending']);
    expect(byId.retrying).toBeGreaterThan(25_000);
    expect(byId.retrying).toBeLessThanOrEqual(30_000);
    expect(byId.sending).toBeGreaterThan(35_000);
  });

  it('fails the whole job when a hand-over fails, so that it runs again, after every delivery was tried', async () => {
    const { repository } = fakeRepository({ d1: { status: 500 }, d2: { status: 200 } });
    const handOver = jest.fn(() => Promise.reject(new Error('Redis is unavailable')));
    await expect(workerWith(repository, handOver).deliverFirstAttempts(job('d1', 'd2'))).rejects.toThrow(
      /Redis/,
    );
    expect(received.map((one) => one.url).sort()).toEqual(['/d1/500', '/d2/200']);
  });

  it('holds a send slot from the attempt’s row to the receiver’s answer: at most DISPATCHER_CONCURRENCY begun at once', async () => {
    let open = 0;
    let most = 0;
    let begunNotAnswered = 0;
    let mostBegun = 0;
    const slow = createServer((req, res) => {
      open++;
      most = Math.max(most, open);
      req.resume();
      setTimeout(() => {
        open--;
        begunNotAnswered--;
        res.writeHead(200).end();
      }, 30);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const port = (slow.address() as AddressInfo).port;
    const ids = ['d1', 'd2', 'd3', 'd4', 'd5'];
    const { repository } = fakeRepository(Object.fromEntries(ids.map((id) => [id, { status: 200 }])));
    const startAttempt = repository.startAttempt.bind(repository);
    repository.startAttempt = async (id, options) => {
      const started = await startAttempt(id, options);
      begunNotAnswered++;
      mostBegun = Math.max(mostBegun, begunNotAnswered);
      if (started) started.delivery.webhook.url = `http://127.0.0.1:${port}/`;
      return started;
    };
    // Two jobs at once share the process's two slots.
    const worker = workerWith(repository, () => Promise.resolve());
    await Promise.all([
      worker.deliverFirstAttempts(job('d1', 'd2', 'd3')),
      worker.deliverFirstAttempts(job('d4', 'd5')),
    ]);
    await new Promise((resolve) => slow.close(resolve));
    expect(most).toBe(2);
    expect(mostBegun).toBe(2);
  });
});
