import http from 'node:http';
import { nowMs, percentile } from '../lib/stats';

// Open-loop submissions: one every 1/rate seconds whatever the answers do
// (a closed loop would slow down with the product and hide its backlog).
// Prints, for each accepted submission, its response token and when the 201
// arrived; the request latency of the accepted ones (ms, sent to 201 read),
// how long the round took from the first request to the last answer, and the
// rate it offered (its sends, over the time from the first to the last).
interface Input {
  url: string;
  rate: number;
  seconds: number;
  body: string;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]) as Input;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const accepted: Array<[string, number]> = [];
  const latencies: number[] = [];
  let failed = 0;
  const send = () =>
    new Promise<void>((resolve) => {
      const sentAt = nowMs();
      const req = http.request(input.url, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(input.body) },
      });
      req.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const at = nowMs();
          if (response.statusCode === 201) {
            const { token } = JSON.parse(Buffer.concat(chunks).toString()) as { token: string };
            accepted.push([token, at]);
            latencies.push(at - sentAt);
          } else failed += 1;
          resolve();
        });
      });
      // An answer later than this counts as refused: the product is past saturation.
      req.setTimeout(10_000, () => req.destroy());
      req.on('error', () => {
        failed += 1;
        resolve();
      });
      req.end(input.body);
    });
  const total = Math.round(input.rate * input.seconds);
  const interval = 1000 / input.rate;
  const start = nowMs();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - nowMs();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send());
  }
  // The rate it offered: a sender short of CPU sends late, and so offers less than asked.
  const offeredPerSecond = (total * 1000) / (nowMs() - start + interval);
  await Promise.all(inFlight);
  const elapsedMs = nowMs() - start;
  agent.destroy();
  const latency = { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  process.stdout.write(
    `${JSON.stringify({ accepted, failed, sent: total, latency, elapsedMs, offeredPerSecond })}\n`,
  );
}

void main();
