import { hashAccessToken } from '@formline/tokens';
import { BenchChild } from '../lib/child';
import { cpuMs } from '../lib/bench-stack';
import { figure } from '../lib/figures';
import { runAutocannon } from '../load/autocannon';
import { api, below, type Context, progress, round1, settings } from '../lib/bench-run';

// GET /forms/{id} with a token, against bare Fastify answering the same bytes
// after the same bearer check; and that same server written on NestJS (the
// stack's floor), which shows how much of the gap is the framework's.
export async function readPath(c: Context): Promise<void> {
  const path = `/forms/${c.readFormId}`;
  const sample = await api(c.stack.baseUrl, c.token, 'GET', path);
  progress(`read path: GET ${path} (${sample.text.length} bytes), ${settings.connections} connections`);
  const serverInput = { body: sample.text, etag: sample.etag, tokenHashes: [hashAccessToken(c.token)] };
  const bare = BenchChild.start('baseline/bare-read.server.js', serverInput);
  const nest = BenchChild.start('baseline/nest-read.server.js', serverInput);
  const [{ url }, { url: nestUrl }] = await Promise.all([
    bare.ready<{ url: string }>(),
    nest.ready<{ url: string }>(),
  ]);
  const load = (base: string, seconds = settings.seconds) =>
    runAutocannon({
      url: `${base}${path}`,
      connections: settings.connections,
      seconds,
      headers: { authorization: `bearer ${c.token}` },
    });
  try {
    for (const warmUp of [c.stack.baseUrl, nestUrl, url]) await load(warmUp, 1);
    const formline = [];
    const floor = [];
    const baseline = [];
    const formlineCpu: number[] = [];
    const floorCpu: number[] = [];
    const baselineCpu: number[] = [];
    // CPU microseconds per answered request of the process serving it.
    const measured = async (base: string, pid: number | undefined, into: number[]) => {
      const before = cpuMs(pid);
      const result = await load(base);
      into.push(((cpuMs(pid) - before) * 1000) / Math.max(1, result.ok));
      return result;
    };
    for (let round = 1; round <= settings.rounds; round++) {
      const product = await measured(c.stack.baseUrl, c.stack.app('gateway').pid, formlineCpu);
      const nestResult = await measured(nestUrl, nest.child.pid, floorCpu);
      const bareResult = await measured(url, bare.child.pid, baselineCpu);
      formline.push(product);
      floor.push(nestResult);
      baseline.push(bareResult);
      progress(
        `  round ${round}: formline ${round1(product.rps)} req/s p99 ${product.p99} ms ${round1(formlineCpu.at(-1)!)} µs CPU/req (non-2xx ${product.non2xx}, errors ${product.errors}) | NestJS floor ${round1(nestResult.rps)} req/s ${round1(floorCpu.at(-1)!)} µs CPU/req | bare ${round1(bareResult.rps)} req/s p99 ${bareResult.p99} ms ${round1(baselineCpu.at(-1)!)} µs CPU/req`,
      );
    }
    c.figures.push(
      figure(
        'read: GET /forms/{id}',
        'req/s',
        formline.map((r) => r.rps),
        baseline.map((r) => r.rps),
        { kind: 'ratio-at-least', bound: 0.5 },
      ),
      // Hardly moved by other load on the machine, unlike req/s: compare runs by it.
      figure('read: gateway CPU per request', 'µs', formlineCpu, baselineCpu, null),
      figure(
        'read: p99 latency',
        'ms',
        formline.map((r) => r.p99),
        baseline.map((r) => r.p99),
        below(20),
      ),
      // The framework's own share: NestJS doing the bare server's work, against it.
      figure(
        'read: NestJS floor, same work',
        'req/s',
        floor.map((r) => r.rps),
        baseline.map((r) => r.rps),
        null,
      ),
      figure('read: NestJS floor CPU per request', 'µs', floorCpu, baselineCpu, null),
      // Formline against what its stack allows for the same work.
      figure(
        'read: GET /forms/{id} against the NestJS floor',
        'req/s',
        formline.map((r) => r.rps),
        floor.map((r) => r.rps),
        null,
      ),
    );
  } finally {
    await Promise.all([bare.stop(), nest.stop()]);
  }
}
