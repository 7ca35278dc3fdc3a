import { AsyncLocalStorage } from 'node:async_hooks';

// What a request context (AsyncLocalStorage) costs on the node it runs on, in
// CPU per request, against the same work without one, in the same process and
// in alternated rounds (medians), so a busy machine moves both alike. A
// "request" is a chain of 60 awaits, the order of what a read does through
// NestJS and Fastify, reading the context three times. Run it with
// `npm run build && bash scripts/with-node.sh node dist/bench/request-context.main.js`;
// docs/decisions/performance.md ("Request context on Node 26") has its figures on Node.js 20 and 26.
const context = new AsyncLocalStorage<{ request: number }>();
const requestsPerRound = 20_000;
const awaitsPerRequest = 60;

async function step(value: number): Promise<number> {
  await Promise.resolve();
  return value + 1;
}

async function request(readsContext: boolean): Promise<number> {
  let value = 0;
  for (let i = 0; i < awaitsPerRequest; i++) {
    value = await step(value);
    if (readsContext && i % 20 === 0) context.getStore();
  }
  return value;
}

async function cpuMicrosecondsPerRequest(withContext: boolean): Promise<number> {
  const before = process.cpuUsage();
  for (let batch = 0; batch < 5; batch++) {
    const requests: Promise<number>[] = [];
    for (let i = 0; i < requestsPerRound / 5; i++) {
      requests.push(withContext ? context.run({ request: i }, () => request(true)) : request(false));
    }
    await Promise.all(requests);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requestsPerRound;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1];
}

async function main(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await cpuMicrosecondsPerRequest(false);
    await cpuMicrosecondsPerRequest(true);
  }
  const without: number[] = [];
  const withContext: number[] = [];
  for (let round = 0; round < 15; round++) {
    without.push(await cpuMicrosecondsPerRequest(false));
    withContext.push(await cpuMicrosecondsPerRequest(true));
  }
  const [a, b] = [median(without), median(withContext)];
  console.log(
    `${process.version}: ${a.toFixed(2)} µs of CPU per request without a context, ${b.toFixed(2)} with one ` +
      `(+${(b - a).toFixed(2)} µs, ${(b / a).toFixed(2)}x)`,
  );
}

void main();
