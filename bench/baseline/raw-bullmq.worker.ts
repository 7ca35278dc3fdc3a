import http from 'node:http';
import { standardWebhookSignature, typeformSignature } from '@formline/webhook-delivery';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';

// The dispatcher's baseline: a bare BullMQ worker, at the dispatcher's
// concurrency, doing the same POST (same body, same two signatures, over
// connections kept alive as the dispatcher keeps them) with everything in the job.
interface Input {
  redisUrl: string;
  queue: string;
  concurrency: number;
}

interface RawJob {
  url: string;
  body: string;
  secret: string;
  eventId: string;
}

// The dispatcher's sender's settings (apps/dispatcher/src/delivery/webhook.sender.ts).
const agent = new http.Agent({
  keepAlive: true,
  maxSockets: 64,
  maxFreeSockets: 16,
  timeout: 4_000,
  scheduling: 'lifo',
});

function post(job: RawJob): Promise<void> {
  const timestamp = Math.floor(Date.now() / 1000);
  return new Promise((resolve, reject) => {
    const req = http.request(job.url, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(job.body).toString(),
        'user-agent': 'Formline-Webhooks/1.0',
        'webhook-id': job.eventId,
        'webhook-timestamp': String(timestamp),
        'typeform-signature': typeformSignature(job.secret, job.body),
        'webhook-signature': standardWebhookSignature(job.secret, job.eventId, timestamp, job.body),
      },
      signal: AbortSignal.timeout(10_000),
    });
    req.on('response', (response) => {
      response.resume();
      response.on('end', () => ((response.statusCode ?? 0) < 300 ? resolve() : reject(new Error('status'))));
    });
    req.on('error', reject);
    req.end(job.body);
  });
}

function main(): void {
  const input = JSON.parse(process.argv[2]) as Input;
  const worker = new Worker<RawJob>(input.queue, (job) => post(job.data), {
    connection: new Redis(input.redisUrl, { maxRetriesPerRequest: null }),
    concurrency: input.concurrency,
  });
  process.stdout.write('ready {}\n');
  process.on('SIGTERM', () => void worker.close().then(() => process.exit(0)));
}

main();
