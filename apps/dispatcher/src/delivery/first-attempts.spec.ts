import { createServer, type Server } from 'node:http';
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
import { DeliveryWorker } from './delivery.worker';

// A first-attempts job: every delivery's first attempt at once, and those
// that did not succeed handed to their own jobs, with their wait (and their
// outcome, when the database did not take it). A fake repository stands for
// PostgreSQL and a fake queue for Redis; the receiver is a real HTTP server
// answering each delivery's path with the status it names.
describe('DeliveryWorker, first attempts', () => {
  let server: Server;
  let base: string;
  const received: string[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = createServer((req, res) => {
      received.push(req.url ?? '');
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

  // Deliveries by id: `status` the receiver's answer; `attempted` one whose
  // first attempt an earlier run made (due again in `dueInMs`).
  function fakeRepository(
    deliveries: Record<string, { status: number; attempted?: { dueInMs: number } }>,
    recorded: () => Promise<boolean> = () => Promise.resolve(true),
  ) {
    const started: string[] = [];
    const startAttempt = (deliveryId: string): Promise<StartedDelivery | null> => {
      const delivery = deliveries[deliveryId];
      if (!delivery) return Promise.resolve(null);
      started.push(deliveryId);
      return Promise.resolve({
        delivery: {
          id: deliveryId,
          eventId: `e-${deliveryId}`,
          body: '{}',
          status: DeliveryStatus.pending,
          attemptCount: 1,
          nextAttemptAt: delivery.attempted ? new Date(Date.now() + delivery.attempted.dueInMs) : null,
          createdAt: new Date(),
          webhook: {
            id: 'w1',
            url: `${base}/${deliveryId}/${delivery.status}`,
            enabled: true,
            verifySsl: true,
            secretSealed: null,
          },
        },
        attempt: delivery.attempted ? null : { attemptId: `a-${deliveryId}`, attemptNumber: 1 },
      });
    };
    const repository = { startAttempt, succeed: recorded, retryLater: recorded, giveUp: recorded };
    return { repository: repository as unknown as DeliveryRepository, started };
  }

  function workerWith(repository: DeliveryRepository, handOver: DeliveryQueue['handOver']): DeliveryWorker {
    const worker = new DeliveryWorker(
      repository,
      {} as Redis,
      {} as never,
      new OutboundUrlPolicy(['127.0.0.1']),
      config,
    );
    // The queue the worker makes at bootstrap, in Redis: here a fake.
    Object.assign(worker, { queue: { handOver } });
    return worker;
  }

  const job = (...ids: string[]): FirstAttemptsJob => ({
    deliveries: ids.map((id) => ({
      deliveryId: id,
      eventId: `e-${id}`,
      webhookId: 'w1',
      requestId: `req-${id}`,
    })),
  });

  it('sends each first attempt and hands over only those that did not succeed, with their wait', async () => {
    const { repository } = fakeRepository({
      d1: { status: 200 },
      d2: { status: 500 },
      d3: { status: 204 },
      d4: { status: 410 },
    });
    const handOver = jest.fn(() => Promise.resolve());
    await workerWith(repository, handOver).deliverFirstAttempts(job('d1', 'd2', 'd3', 'd4'));
    expect(received.sort()).toEqual(['/d1/200', '/d2/500', '/d3/204', '/d4/410']);
    // 410 gives up (the webhook is gone): nothing more to do for it.
    expect(handOver).toHaveBeenCalledTimes(1);
    expect(handOver).toHaveBeenCalledWith([
      {
        deliveryId: 'd2',
        eventId: 'e-d2',
        webhookId: 'w1',
        requestId: 'req-d2',
        delayMs: expect.any(Number),
        unrecorded: undefined,
      },
    ]);
    const [[[handed]]] = handOver.mock.calls as unknown as [[[{ delayMs: number }]]];
    expect(handed.delayMs).toBeGreaterThan(400);
    expect(handed.delayMs).toBeLessThanOrEqual(500);
  });

  it('hands over an outcome the database did not take, to be recorded by its own job without sending again', async () => {
    const { repository } = fakeRepository({ d1: { status: 200 } }, () =>
      Promise.reject(new Error('PostgreSQL is unavailable')),
    );
    const handOver = jest.fn(() => Promise.resolve());
    await workerWith(repository, handOver).deliverFirstAttempts(job('d1'));
    expect(received).toEqual(['/d1/200']);
    expect(handOver).toHaveBeenCalledWith([
      expect.objectContaining({
        deliveryId: 'd1',
        delayMs: 500,
        unrecorded: expect.objectContaining({ attemptId: 'a-d1', decision: { kind: 'succeeded' } }),
      }),
    ]);
  });

  it('sends nothing for a delivery attempted by an earlier run, and hands it over again for when it is due', async () => {
    const { repository } = fakeRepository({ d1: { status: 500, attempted: { dueInMs: 30_000 } } });
    const handOver = jest.fn(() => Promise.resolve());
    await workerWith(repository, handOver).deliverFirstAttempts(job('d1', 'gone'));
    expect(received).toEqual([]);
    const [[[handed]]] = handOver.mock.calls as unknown as [[[{ deliveryId: string; delayMs: number }]]];
    expect(handed.deliveryId).toBe('d1');
    expect(handed.delayMs).toBeGreaterThan(25_000);
  });

  it('fails the whole job when the hand-over fails, so that it runs again', async () => {
    const { repository } = fakeRepository({ d1: { status: 500 } });
    const handOver = jest.fn(() => Promise.reject(new Error('Redis is unavailable')));
    await expect(workerWith(repository, handOver).deliverFirstAttempts(job('d1'))).rejects.toThrow(/Redis/);
  });

  it('sends at most DISPATCHER_CONCURRENCY at once', async () => {
    let open = 0;
    let most = 0;
    const slow = createServer((req, res) => {
      open++;
      most = Math.max(most, open);
      req.resume();
      setTimeout(() => {
        open--;
        res.writeHead(200).end();
      }, 30);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const port = (slow.address() as AddressInfo).port;
    const ids = ['d1', 'd2', 'd3', 'd4', 'd5'];
    const { repository } = fakeRepository(Object.fromEntries(ids.map((id) => [id, { status: 200 }])));
    const startAttempt = repository.startAttempt.bind(repository);
    repository.startAttempt = async (...args) => {
      const started = await startAttempt(...args);
      if (started) started.delivery.webhook.url = `http://127.0.0.1:${port}/`;
      return started;
    };
    await workerWith(repository, () => Promise.resolve()).deliverFirstAttempts(job(...ids));
    await new Promise((resolve) => slow.close(resolve));
    expect(most).toBe(2);
  });
});
