import { BenchChild } from '../lib/child';
import { cpuMs, infraCpuMs } from '../lib/bench-stack';
import { type Figure, figure } from '../lib/figures';
import { plainTables, productTables } from '../lib/intake-transaction';
import { backgroundCores, cpuSpent, describeShares, perRequestUs } from '../lib/machine-cpu';
import { PipelineDrain } from '../lib/pipeline-drain';
import { RawFloor, type RawRound } from '../lib/raw-floor';
import { round } from '../lib/stats';
import { runAutocannon } from '../load/autocannon';
import { type Context, progress, round1, settings, submission } from '../lib/bench-run';

// Anonymous submissions against a raw pg transaction writing rows of the same
// size into plain tables (the floor), and into copies of the product's tables
// (what its schema costs); and the plain transaction behind bare Fastify (the HTTP floor) and behind
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
  await load(2);
  // The raw transaction's tables (plain: the floor; copies of the product's:
  // what its schema costs the same write) and the rows it copies.
  const rawFloor = await RawFloor.open(c);
  await rawFloor.round(plainTables, 2, 0);
  await rawFloor.round(productTables, 2, 0);
  // What a round of submissions sets going (outbox relay, webhooks consumer)
  // ends before the next load starts, so no baseline shares the cores with it
  // and each round's CPU is its own.
  const drain = await PipelineDrain.open(c);
  const httpFloor = BenchChild.start('baseline/fastify-intake.server.js', {
    databaseUrl: rawFloor.databaseUrl,
    ...rawFloor.input(),
  });
  const { url: httpFloorUrl } = await httpFloor.ready<{ url: string }>();
  await load(2, httpFloorUrl);
  // The same transaction behind NestJS on Fastify and one NATS request/reply
  // to a NestJS microservice: the architecture's floor.
  const floorService = BenchChild.start('baseline/stack-intake.service.js', {
    databaseUrl: rawFloor.databaseUrl,
    natsUrl: c.infra.natsUrl,
    ...rawFloor.input(),
  });
  const floorServer = BenchChild.start('baseline/stack-intake.server.js', { natsUrl: c.infra.natsUrl });
  await floorService.ready();
  const { url: floorUrl } = await floorServer.ready<{ url: string }>();
  await load(2, floorUrl);
  const formline = [];
  const floor = [];
  const http = [];
  const baseline: RawRound[] = [];
  const productTable: RawRound[] = [];
  // CPU per submission, every process and core together (the load generator
  // too): the machine is the bound, so these explain the req/s ratios.
  const formlineCpu: number[] = [];
  const floorCpu: number[] = [];
  const baselineCpu: number[] = [];
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
      await drain.drained();
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
      const rawResult = await rawFloor.round(plainTables, settings.seconds, background);
      const productTableResult = await rawFloor.round(productTables, settings.seconds, background);
      formline.push(product);
      floor.push(floorResult);
      http.push(httpResult);
      baseline.push(rawResult);
      productTable.push(productTableResult);
      formlineCpu.push(formlineShares.machine);
      floorCpu.push(floorShares.machine);
      baselineCpu.push(rawResult.machineUs);
      progress(
        `  round ${round}: formline ${round1(product.rps)} req/s p99 ${product.p99} ms (non-2xx ${product.non2xx}, errors ${product.errors}) | stack floor ${round1(floorResult.rps)} req/s (non-2xx ${floorResult.non2xx}) | HTTP floor ${round1(httpResult.rps)} req/s (non-2xx ${httpResult.non2xx}) | raw pg ${round1(rawResult.rps)} tx/s p99 ${round1(rawResult.p99)} ms, on the product's tables ${round1(productTableResult.rps)} tx/s`,
      );
      progress(
        `    CPU per submission, µs: formline ${describeShares(formlineShares)} | stack floor ${describeShares(floorShares)} | raw pg ${Math.round(rawResult.machineUs)}, on the product's tables ${Math.round(productTableResult.machineUs)}`,
      );
    }
  } finally {
    await Promise.all([floorServer.stop(), floorService.stop(), httpFloor.stop()]);
  }
  // The plain floor, for the stages set against it later in the run.
  c.rawFloor = { txPerSecond: baseline.map((r) => r.rps), machineUs: baselineCpu };
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
    // What the product's schema (its indexes, the answered_fields trigger)
    // costs the same write: the plain floor against it.
    withNote(
      figure(
        "intake: raw transaction on the product's tables",
        'tx/s',
        productTable.map((r) => r.rps),
        baseline.map((r) => r.rps),
        null,
      ),
      "copies of responses and outbox_events with every index and the answered_fields trigger (not the tallies' triggers); the baseline is the plain floor",
    ),
    figure(
      "intake: schema cost, plain floor over the product's tables",
      'tx/s',
      baseline.map((r) => r.rps),
      productTable.map((r) => r.rps),
      null,
    ),
    figure(
      "intake: raw transaction on the product's tables, machine CPU per tx",
      'µs',
      productTable.map((r) => r.machineUs),
      baselineCpu,
      null,
    ),
  );
  // Let the relay publish what the rounds wrote before deliveries are timed.
  await drain.drained();
  await drain.close();
  await rawFloor.close();
}

function withNote(f: Figure, note: string): Figure {
  return { ...f, note };
}
