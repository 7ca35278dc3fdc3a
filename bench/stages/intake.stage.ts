import { Client } from 'pg';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Streams } from '@formline/contracts';
import { BenchChild } from '../lib/child';
import { cpuMs, infraCpuMs, machineBusyMs } from '../lib/bench-stack';
import { figure } from '../lib/figures';
import { round } from '../lib/stats';
import { runAutocannon } from '../load/autocannon';
import { type Context, progress, round1, settings, sleep, submission, waitFor } from '../lib/bench-run';

// Anonymous submissions against a raw pg transaction writing rows of the same
// size; and that transaction behind bare Fastify (the HTTP floor) and behind
// NestJS + one NATS hop to a NestJS microservice (the stack floor).
export async function intake(c: Context): Promise<void> {
  const path = `/forms/${c.readFormId}/submissions`;
  progress(`intake: POST ${path} (2 answers), ${settings.connections} connections`);
  const load = (seconds = settings.seconds, base = c.stack.baseUrl) =>
    runAutocannon({
      url: `${base}${path}`,
      connections: settings.connections,
      seconds,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: submission,
    });
  const responsesUrl = `${c.infra.databaseHostUrl}/formline_responses_us`;
  await load(2);
  const pg = new Client({ connectionString: responsesUrl });
  await pg.connect();
  await pg.query('CREATE TABLE IF NOT EXISTS bench_responses (LIKE responses INCLUDING ALL)');
  await pg.query('CREATE TABLE IF NOT EXISTS bench_outbox_events (LIKE outbox_events INCLUDING ALL)');
  const response = (await pg.query('SELECT * FROM responses ORDER BY created_at DESC LIMIT 1'))
    .rows[0] as Record<string, unknown>;
  const event = (await pg.query('SELECT * FROM outbox_events ORDER BY created_at DESC LIMIT 1'))
    .rows[0] as Record<string, unknown>;
  const raw = (seconds = settings.seconds) =>
    BenchChild.start('baseline/raw-intake.worker.js', {
      databaseUrl: responsesUrl,
      seconds,
      callers: settings.connections,
      response,
      event,
    }).result<{ rps: number; p50: number; p99: number; ok: number }>();
  await raw(2);
  // What a round of submissions sets going (outbox relay, webhooks consumer)
  // ends before the next load starts, so no baseline shares the cores with it
  // and each round's CPU is its own.
  const nats = await connect({ servers: c.infra.natsUrl });
  const jsm = await jetstreamManager(nats);
  const pipelineDrained = async () => {
    const drained = await waitFor(async () => {
      const { rows } = await pg.query(
        'SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL',
      );
      if ((rows[0] as { n: number }).n > 0) return false;
      const consumer = await jsm.consumers.info(Streams.responses.name, Streams.responses.consumers.webhooks);
      return consumer.num_pending + consumer.num_ack_pending === 0;
    }, 120_000);
    if (!drained) progress('  (the outbox or the webhooks consumer still had events after 120 s)');
  };
  const httpFloor = BenchChild.start('baseline/fastify-intake.server.js', {
    databaseUrl: responsesUrl,
    response,
    event,
  });
  const { url: httpFloorUrl } = await httpFloor.ready<{ url: string }>();
  await load(2, httpFloorUrl);
  // The same transaction behind NestJS on Fastify and one NATS request/reply
  // to a NestJS microservice: the architecture's floor.
  const floorService = BenchChild.start('baseline/stack-intake.service.js', {
    databaseUrl: responsesUrl,
    natsUrl: c.infra.natsUrl,
    response,
    event,
  });
  const floorServer = BenchChild.start('baseline/stack-intake.server.js', { natsUrl: c.infra.natsUrl });
  await floorService.ready();
  const { url: floorUrl } = await floorServer.ready<{ url: string }>();
  await load(2, floorUrl);
  const formline = [];
  const floor = [];
  const http = [];
  const baseline = [];
  // CPU per submission, every process and core together (the load generator
  // too): the machine is the bound, so these explain the req/s ratios.
  const formlineCpu: number[] = [];
  const floorCpu: number[] = [];
  const baselineCpu: number[] = [];
  // What the machine does with no load (idle apps' timers, the servers, this
  // process's polling), taken off each round's machine figure: a slower
  // round would otherwise be charged more of it per request.
  const background = await backgroundCores(2000);
  progress(`  machine busy with no load: ${round(background, 3)} cores (taken off the CPU per submission)`);
  try {
    for (let round = 1; round <= settings.rounds; round++) {
      const formlineSpent = cpuSpent(() => {
        const infra = infraCpuMs(c.infra);
        return {
          gateway: cpuMs(c.stack.app('gateway').pid),
          responses: cpuMs(c.stack.app('responses').pid),
          webhooks: cpuMs(c.stack.app('webhooks').pid),
          NATS: infra.nats,
          PostgreSQL: infra.postgres,
        };
      }, background);
      const product = await load();
      // What the round set going (outbox, events) is part of its cost.
      await pipelineDrained();
      const formlineShares = perRequestUs(formlineSpent(), product.ok);
      const floorSpent = cpuSpent(() => {
        const infra = infraCpuMs(c.infra);
        return {
          server: cpuMs(floorServer.child.pid),
          service: cpuMs(floorService.child.pid),
          NATS: infra.nats,
          PostgreSQL: infra.postgres,
        };
      }, background);
      const floorResult = await load(settings.seconds, floorUrl);
      const floorShares = perRequestUs(floorSpent(), floorResult.ok);
      const httpResult = await load(settings.seconds, httpFloorUrl);
      const rawSpent = cpuSpent(() => ({}), background);
      const rawResult = await raw();
      const rawShares = perRequestUs(rawSpent(), rawResult.ok);
      formline.push(product);
      floor.push(floorResult);
      http.push(httpResult);
      baseline.push(rawResult);
      formlineCpu.push(formlineShares.machine);
      floorCpu.push(floorShares.machine);
      baselineCpu.push(rawShares.machine);
      progress(
        `  round ${round}: formline ${round1(product.rps)} req/s p99 ${product.p99} ms (non-2xx ${product.non2xx}, errors ${product.errors}) | stack floor ${round1(floorResult.rps)} req/s (non-2xx ${floorResult.non2xx}) | HTTP floor ${round1(httpResult.rps)} req/s (non-2xx ${httpResult.non2xx}) | raw pg ${round1(rawResult.rps)} tx/s p99 ${round1(rawResult.p99)} ms`,
      );
      progress(
        `    CPU per submission, µs: formline ${describeShares(formlineShares)} | stack floor ${describeShares(floorShares)} | raw pg ${describeShares(rawShares)}`,
      );
    }
  } finally {
    await Promise.all([floorServer.stop(), floorService.stop(), httpFloor.stop()]);
  }
  c.figures.push(
    figure(
      'intake: anonymous POST submissions',
      'req/s',
      formline.map((r) => r.rps),
      baseline.map((r) => r.rps),
      { kind: 'ratio-at-least', bound: 0.5 },
    ),
    figure(
      'intake: p99 latency',
      'ms',
      formline.map((r) => r.p99),
      baseline.map((r) => r.p99),
      null,
    ),
    // What serving HTTP at all costs (the load generator shares the cores too).
    figure(
      'intake: HTTP floor, same transaction',
      'req/s',
      http.map((r) => r.rps),
      baseline.map((r) => r.rps),
      null,
    ),
    // What NestJS and one NATS hop add to it.
    figure(
      'intake: stack floor against the HTTP floor',
      'req/s',
      floor.map((r) => r.rps),
      http.map((r) => r.rps),
      null,
    ),
    // The architecture's own share: its floor doing the raw transaction, against it.
    figure(
      'intake: stack floor, same transaction',
      'req/s',
      floor.map((r) => r.rps),
      baseline.map((r) => r.rps),
      null,
    ),
    // Formline against what its architecture allows for the same write.
    figure(
      'intake: POST submissions against the stack floor',
      'req/s',
      formline.map((r) => r.rps),
      floor.map((r) => r.rps),
      null,
    ),
    figure('intake: machine CPU per submission', 'µs', formlineCpu, baselineCpu, null),
    figure('intake: stack floor machine CPU per submission', 'µs', floorCpu, baselineCpu, null),
  );
  // Let the relay publish what the rounds wrote before deliveries are timed.
  await pipelineDrained();
  await nats.close();
  await pg.query('DROP TABLE bench_responses, bench_outbox_events');
  await pg.end();
}

// CPU spent from now on, in ms, by the whole machine (less its background,
// in cores, for the time elapsed) and by each part `parts` names (it reads
// their CPU ms so far, in one pass); call the result to read it.
function cpuSpent(
  parts: () => Record<string, number>,
  backgroundCores: number,
): () => Record<string, number> {
  const read = (): Record<string, number> => ({ machine: machineBusyMs(), ...parts() });
  const [before, startedAt] = [read(), Date.now()];
  return () => {
    const after = read();
    const spent = Object.fromEntries(Object.entries(after).map(([name, ms]) => [name, ms - before[name]]));
    spent.machine -= backgroundCores * (Date.now() - startedAt);
    return spent;
  };
}

// Cores the machine keeps busy while nothing is asked of it, over `ms`.
async function backgroundCores(ms: number): Promise<number> {
  const [busy, started] = [machineBusyMs(), Date.now()];
  await sleep(ms);
  return (machineBusyMs() - busy) / Math.max(1, Date.now() - started);
}

function perRequestUs(spentMs: Record<string, number>, requests: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(spentMs).map(([name, ms]) => [name, (ms * 1000) / Math.max(1, requests)]),
  );
}

// "2210 (gateway 410, responses 620, ...)": the machine's figure, then its parts.
function describeShares({ machine, ...parts }: Record<string, number>): string {
  const named = Object.entries(parts).map(([name, us]) => `${name} ${Math.round(us)}`);
  return `${Math.round(machine)}${named.length > 0 ? ` (${named.join(', ')})` : ''}`;
}
