import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import {
  type DeliveryJob,
  type DeliveryQueue,
  type DeliveryRepository,
  DeliveryStatus,
  RetryDeliveryLater,
  SecretBox,
  type UnrecordedAttempt,
} from '@formline/webhook-delivery';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DispatcherConfig } from '@formline/app-config';
import { DeliveryAttempts } from './delivery.attempts';
import { DeliveryWorker } from './delivery.worker';

// The worker between a receiver's answer and the database: an outcome the
// database could not take waits with the job and is recorded by its next run,
// which never sends again. A fake repository stands for PostgreSQL; the
// receiver is a real HTTP server on 127.0.0.1.
describe('DeliveryWorker', () => {
  let server: Server;
  let posts = 0;
  let url: string;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    server = createServer((req, res) => {
      posts++;
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (posts = 0));

  const config = {
    WEBHOOK_TIMEOUT_MS: 5000,
    DISPATCHER_LOCK_MS: 2000,
    DISPATCHER_CONCURRENCY: 4,
    WEBHOOK_RETRY_SCHEDULE_MS: [500, 1000],
    WEBHOOK_RETRY_JITTER: 0,
    WEBHOOK_RETRY_AFTER_MAX_MS: 60_000,
  } as unknown as DispatcherConfig;

  function fakeRepository(record: () => Promise<boolean>, secretSealed: string | null = null) {
    const calls = { startAttempt: 0, cancelAttempt: 0, record: 0 };
    const repository = {
      startAttempt: () => {
        calls.startAttempt++;
        return Promise.resolve({
          delivery: {
            id: 'd1',
            eventId: 'e1',
            body: '{}',
            status: DeliveryStatus.pending,
            attemptCount: 1,
            createdAt: new Date(),
            webhook: { id: 'w1', url, enabled: true, verifySsl: true, secretSealed },
          },
          attempt: { attemptId: 'a1', attemptNumber: 1 },
        });
      },
      cancelAttempt: () => {
        calls.cancelAttempt++;
        return Promise.resolve();
      },
      succeed: () => {
        calls.record++;
        return record();
      },
      retryLater: () => {
        calls.record++;
        return record();
      },
    };
    return { repository: repository as unknown as DeliveryRepository, calls };
  }

  function workerWith(repository: DeliveryRepository, secrets = {} as SecretBox): DeliveryWorker {
    const attempts = new DeliveryAttempts(repository, secrets, new OutboundUrlPolicy(['127.0.0.1']), config);
    return new DeliveryWorker(attempts, {} as Redis, {} as DeliveryQueue, config);
  }

  function jobOf(data: DeliveryJob) {
    const updates: DeliveryJob[] = [];
    const job = {
      data,
      updateData: (next: DeliveryJob) => {
        updates.push(next);
        return Promise.resolve();
      },
    } as unknown as Job<DeliveryJob>;
    return { job, updates };
  }

  const acknowledged: UnrecordedAttempt = {
    attemptId: 'a1',
    attemptNumber: 1,
    webhookId: 'w1',
    outcome: { ok: true, statusCode: 200, durationMs: 3 },
    decision: { kind: 'succeeded' },
    endedAt: Date.now(),
  };

  it('ends a job whose delivery is gone (its form was deleted) without sending or recording', async () => {
    const { repository, calls } = fakeRepository(() => Promise.resolve(true));
    const gone = {
      ...repository,
      startAttempt: () => Promise.resolve(null),
    } as unknown as DeliveryRepository;
    const { job, updates } = jobOf({ deliveryId: 'd1' });
    await expect(workerWith(gone).deliver(job.data, job)).resolves.toBeUndefined();
    expect(posts).toBe(0);
    expect(calls.record).toBe(0);
    expect(updates).toEqual([]);
  });

  it('keeps the outcome with the job when the database refuses it, and runs the job again', async () => {
    const { repository, calls } = fakeRepository(() =>
      Promise.reject(new Error('PostgreSQL is unavailable')),
    );
    const { job, updates } = jobOf({ deliveryId: 'd1' });
    await expect(workerWith(repository).deliver(job.data, job)).rejects.toBeInstanceOf(RetryDeliveryLater);
    expect(posts).toBe(1);
    expect(calls.record).toBe(1);
    expect(updates).toEqual([
      {
        deliveryId: 'd1',
        unrecorded: expect.objectContaining({ attemptId: 'a1', decision: { kind: 'succeeded' } }),
      },
    ]);
  });

  it('records a kept outcome on the next run without sending, or fails again while the database is away', async () => {
    const down = fakeRepository(() => Promise.reject(new Error('PostgreSQL is unavailable')));
    const { job } = jobOf({ deliveryId: 'd1', unrecorded: acknowledged });
    await expect(workerWith(down.repository).deliver(job.data, job)).rejects.toThrow(/unavailable/);
    const up = fakeRepository(() => Promise.resolve(true));
    await workerWith(up.repository).deliver(job.data, job);
    expect(posts).toBe(0);
    expect(up.calls).toEqual({ startAttempt: 0, cancelAttempt: 0, record: 1 });
  });

  it('keeps the retry time a kept outcome chose', async () => {
    const { repository } = fakeRepository(() => Promise.resolve(true));
    const failed: UnrecordedAttempt = {
      ...acknowledged,
      outcome: {
        ok: false,
        kind: 'http_status',
        statusCode: 500,
        message: 'HTTP 500',
        durationMs: 3,
        retryAfterMs: null,
      },
      decision: { kind: 'retry', delayMs: 60_000 },
    };
    const { job } = jobOf({ deliveryId: 'd1', unrecorded: failed });
    const run = workerWith(repository).deliver(job.data, job);
    await expect(run).rejects.toBeInstanceOf(RetryDeliveryLater);
    const error = (await run.catch((caught: unknown) => caught)) as RetryDeliveryLater;
    expect(error.delayMs).toBeGreaterThan(55_000);
    expect(posts).toBe(0);
  });

  it('carries on as usual when the kept outcome was recorded already', async () => {
    const { repository, calls } = fakeRepository(() => Promise.resolve(false));
    const { job } = jobOf({ deliveryId: 'd1', unrecorded: acknowledged });
    await workerWith(repository).deliver(job.data, job);
    expect(calls.startAttempt).toBe(1);
    expect(posts).toBe(1);
  });

  it('undoes the attempt it began and sends nothing when the secret cannot be opened', async () => {
    const { repository, calls } = fakeRepository(() => Promise.resolve(true), 'v2.gone.x.y.z');
    const secrets = new SecretBox(Buffer.alloc(32, 1).toString('base64'));
    const { job } = jobOf({ deliveryId: 'd1' });
    await expect(workerWith(repository, secrets).deliver(job.data, job)).rejects.toThrow(/not configured/);
    expect(calls).toEqual({ startAttempt: 1, cancelAttempt: 1, record: 0 });
    expect(posts).toBe(0);
  });
});
