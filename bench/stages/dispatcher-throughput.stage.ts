import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { createWebhooksDatabase, DeliveryStatus } from '@formline/db';
import { DeliveryQueue, DeliveryRepository } from '@formline/webhook-delivery';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BenchChild } from '../lib/child';
import { extraDispatcher, cpuMs, infraCpuMs, machineBusyMs } from '../lib/bench-stack';
import { figure } from '../lib/figures';
import {
  type Context,
  dispatcherConcurrency,
  progress,
  round1,
  settings,
  sleep,
  submitMany,
  waitFor,
  webhookSecret,
} from '../lib/bench-run';

// Deliveries per second from a backlog of BENCH_BACKLOG jobs: one dispatcher,
// two dispatchers, and a bare BullMQ worker doing the same POSTs. The
// product's backlog is planned the way the webhooks service plans one (its
// DeliveryRepository writes the rows, its DeliveryQueue adds the jobs), from
// copies of a delivered event, each with its own token: no thousands of
// submissions and no restarts between rounds. The second dispatcher runs
// throughout, stopped (SIGSTOP, holding no job) during the one-dispatcher rounds.
// Then the same with a receiver that answers after 100 ms: each dispatcher
// holds at most its concurrency of deliveries at once, so one is bound by
// concurrency / delay (20 / 0.1 s = 200/s), not by CPU, and a second
// dispatcher should double it: where replicas pay.
export async function dispatcherThroughput(c: Context): Promise<void> {
  const n = settings.backlog;
  progress(
    `dispatcher throughput: a backlog of ${n} deliveries, concurrency ${dispatcherConcurrency} per dispatcher`,
  );
  const connection = new Redis(c.infra.redisUrl, { maxRetriesPerRequest: null });
  const deliveryQueue = new DeliveryQueue(connection);
  const rawQueue = new Queue('bench-raw-delivery', { connection });
  const webhooksDb = createWebhooksDatabase(`${c.infra.databaseHostUrl}/formline_webhooks_us`);
  const deliveries = new DeliveryRepository(webhooksDb);
  const sample = await sampleDelivery(c, webhooksDb);
  const template = JSON.parse(sample.body) as { event_id: string; form_response: { token: string } };
  const copies = (prefix: string) =>
    Array.from({ length: n }, (_, i) => {
      template.event_id = `${prefix}${i}-${randomBytes(6).toString('hex')}`;
      template.form_response.token = `${template.event_id}t`;
      return { eventId: template.event_id, body: JSON.stringify(template) };
    });
  const rate = (arrivals: number[]) =>
    arrivals.length < 2 ? 0 : ((arrivals.length - 1) * 1000) / (arrivals[arrivals.length - 1] - arrivals[0]);
  const second = await extraDispatcher(c.stack, 2);
  const pause = (paused: boolean) => process.kill(second.pid!, paused ? 'SIGSTOP' : 'SIGCONT');

  // CPU microseconds (user + system) the working processes spent per
  // delivery: unlike deliveries/s, hardly moved by other load on the machine.
  const cpuPerDelivery = (pids: (number | undefined)[], work: () => Promise<number>) => async () => {
    const total = () => pids.reduce<number>((sum, pid) => sum + cpuMs(pid), 0);
    const before = total();
    const infraBefore = infraCpuMs(c.infra);
    const [busyBefore, started] = [machineBusyMs(), Date.now()];
    const perSecond = await work();
    const spent = total() - before;
    const infraAfter = infraCpuMs(c.infra);
    return {
      perSecond,
      // Cores the whole machine kept busy meanwhile (the dispatchers,
      // PostgreSQL, Redis, the receiver, the rest of the stack).
      busyCores: (machineBusyMs() - busyBefore) / Math.max(1, Date.now() - started),
      cpuUs: (spent * 1000) / n,
      postgresUs: ((infraAfter.postgres - infraBefore.postgres) * 1000) / n,
      redisUs: ((infraAfter.redis - infraBefore.redis) * 1000) / n,
    };
  };
  const dispatcherPid = c.stack.app('dispatcher').pid;
  const product = (dispatchers: 1 | 2, receiverDelayMs = 0) =>
    cpuPerDelivery(dispatchers === 1 ? [dispatcherPid] : [dispatcherPid, second.pid], async () => {
      pause(dispatchers === 1);
      c.receiver.reset();
      c.receiver.delayMs = receiverDelayMs;
      try {
        const planned = await deliveries.plan(
          copies(`bench${dispatchers}-${receiverDelayMs}-`).map((copy) => ({
            ...copy,
            webhookId: sample.webhookId,
          })),
        );
        await deliveryQueue.addPlanned(planned);
        const arrivals = await c.receiver.until(n, 120_000);
        // The last answers are still held: let them go before the next round.
        await sleep(receiverDelayMs * 2);
        return rate(arrivals);
      } finally {
        c.receiver.delayMs = 0;
      }
    })();
  const raw = async () => {
    c.receiver.reset();
    const worker = BenchChild.start('baseline/raw-bullmq.worker.js', {
      redisUrl: c.infra.redisUrl,
      queue: 'bench-raw-delivery',
      concurrency: dispatcherConcurrency,
    });
    await worker.ready();
    const before = cpuMs(worker.child.pid);
    const redisBefore = infraCpuMs(c.infra).redis;
    await rawQueue.addBulk(
      copies('raw').map((copy) => ({
        name: 'deliver',
        data: { url: c.receiver.url('/raw'), body: copy.body, secret: webhookSecret, eventId: copy.eventId },
        opts: { removeOnComplete: true },
      })),
    );
    const arrivals = await c.receiver.until(n, 120_000);
    const cpuUs = ((cpuMs(worker.child.pid) - before) * 1000) / n;
    const redisUs = ((infraCpuMs(c.infra).redis - redisBefore) * 1000) / n;
    await worker.stop();
    return { perSecond: rate(arrivals), cpuUs, redisUs };
  };
  const one: number[] = [];
  const two: number[] = [];
  const bare: number[] = [];
  const oneCpu: number[] = [];
  const bareCpu: number[] = [];
  // What else a delivery costs the machine: PostgreSQL and Redis (the bare
  // worker uses no database). With two cores for all of it, their sum bounds
  // what any number of dispatchers can reach.
  const oneInfra: number[] = [];
  const bareInfra: number[] = [];
  const oneBusy: number[] = [];
  const oneSlow: number[] = [];
  const twoSlow: number[] = [];
  try {
    for (let round = 1; round <= settings.rounds; round++) {
      const rawRound = await raw();
      const oneRound = await product(1);
      const twoRound = await product(2);
      bare.push(rawRound.perSecond);
      bareCpu.push(rawRound.cpuUs);
      one.push(oneRound.perSecond);
      oneCpu.push(oneRound.cpuUs);
      oneInfra.push(oneRound.postgresUs + oneRound.redisUs);
      oneBusy.push(oneRound.busyCores);
      bareInfra.push(rawRound.redisUs);
      two.push(twoRound.perSecond);
      progress(
        `  round ${round}: one dispatcher ${round1(oneRound.perSecond)}/s ${round1(oneRound.cpuUs)} µs CPU/delivery (+ PostgreSQL ${round1(oneRound.postgresUs)}, Redis ${round1(oneRound.redisUs)}; machine ${round1(oneRound.busyCores)} of ${cpus().length} cores busy), two ${round1(twoRound.perSecond)}/s ${round1(twoRound.cpuUs)} µs | bare BullMQ ${round1(rawRound.perSecond)}/s ${round1(rawRound.cpuUs)} µs (+ Redis ${round1(rawRound.redisUs)})`,
      );
      const oneSlowRound = await product(1, slowReceiverMs);
      const twoSlowRound = await product(2, slowReceiverMs);
      oneSlow.push(oneSlowRound.perSecond);
      twoSlow.push(twoSlowRound.perSecond);
      progress(
        `    receiver answering after ${slowReceiverMs} ms: one dispatcher ${round1(oneSlowRound.perSecond)}/s (bound ${concurrencyBound}/s; machine ${round1(oneSlowRound.busyCores)} cores busy), two ${round1(twoSlowRound.perSecond)}/s (${round1(twoSlowRound.perSecond / oneSlowRound.perSecond)}x; CPU-bound above: ${round1(twoRound.perSecond / oneRound.perSecond)}x)`,
      );
    }
  } finally {
    pause(false);
    await second.stop();
    await deliveryQueue.close();
    await rawQueue.close();
    connection.disconnect();
    await webhooksDb.$disconnect();
  }
  c.figures.push(
    figure('dispatcher: deliveries/s, one dispatcher', 'deliveries/s', one, bare, {
      kind: 'ratio-at-least',
      bound: 0.6,
    }),
    figure('dispatcher: two dispatchers over one', 'deliveries/s', two, one, {
      kind: 'ratio-at-least',
      bound: 1.3,
    }),
    // Beside it: the same where deliveries wait on the receiver, not the CPU.
    figure(
      `dispatcher: two dispatchers, slow receivers (${slowReceiverMs} ms)`,
      'deliveries/s',
      twoSlow,
      oneSlow,
      {
        kind: 'ratio-at-least',
        bound: 1.8,
      },
    ),
    // How near one dispatcher comes to what its concurrency allows.
    figure(
      `dispatcher: one dispatcher, slow receivers (${slowReceiverMs} ms), against concurrency / delay`,
      'deliveries/s',
      oneSlow,
      oneSlow.map(() => concurrencyBound),
      null,
    ),
    // Compare runs by it when the machine is not quiet (as the read figure's).
    figure('dispatcher: CPU per delivery', 'µs', oneCpu, bareCpu, null),
    figure('dispatcher: PostgreSQL + Redis CPU per delivery', 'µs', oneInfra, bareInfra, null),
    // Why two dispatchers may not reach 1.3x one: the cores one dispatcher's
    // run leaves idle bound what a second can add (all cores over those busy).
    figure('dispatcher: cores busy with one dispatcher', 'cores', oneBusy, undefined, null),
    figure(
      'dispatcher: most two could reach over one (cores / cores busy)',
      'x',
      oneBusy.map((busy) => cpus().length / busy),
      undefined,
      null,
    ),
  );
}

// The slow receivers' answer time, and the most one dispatcher can deliver
// behind them: each delivery holds one of its `concurrency` slots that long.
const slowReceiverMs = 100;
const concurrencyBound = (dispatcherConcurrency * 1000) / slowReceiverMs;

// A delivery the product made to the bench's webhook (one submission, if the
// delivery figures did not run): what the backlogs are copied from.
async function sampleDelivery(
  c: Context,
  db: ReturnType<typeof createWebhooksDatabase>,
): Promise<{ body: string; webhookId: string }> {
  const latest = () =>
    db.delivery.findFirst({
      where: { status: DeliveryStatus.succeeded },
      orderBy: { createdAt: 'desc' },
      select: { body: true, webhookId: true },
    });
  let found = await latest();
  if (!found) {
    await submitMany(`${c.stack.baseUrl}/forms/${c.deliveryFormId}/submissions`, 1);
    await waitFor(async () => (found = await latest()) !== null, 60_000);
  }
  if (!found) throw new Error('dispatcher throughput: no delivery to copy');
  return found;
}
