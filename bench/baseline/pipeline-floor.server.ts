import { randomUUID } from 'node:crypto';
import http from 'node:http';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { standardWebhookSignature, typeformSignature } from '@formline/webhook-delivery';
import { writeSubmissionRows, type SubmissionRows } from '../lib/intake-transaction';

// The pipeline's floor: the least that accepts a submission over HTTP, stores
// it and delivers it to a webhook, on Node. Bare Fastify takes the POST, runs
// the raw transaction (plain tables) and answers 201 with the row's id as the
// token; then, in the same process, it POSTs the stored event to the bench's
// receiver as the dispatcher does: the same body (the event without its
// routing account), the same headers and both signatures. No queue, no retry, no second
// process: a crash between the answer and the POST loses the delivery, which
// the product may never do. So every whole-path design on this stack costs at
// least this much, and the product's pipeline figures are read against it.
interface Input extends SubmissionRows {
  databaseUrl: string;
  receiverUrl: string;
  secret: string;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]) as Input;
  const pool = new Pool({ connectionString: input.databaseUrl, max: 10 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const { account_id: _routing, ...event } = input.event.payload as {
    account_id?: string;
    form_response: Record<string, unknown>;
  };
  const deliver = (token: string) => {
    const eventId = randomUUID();
    const body = JSON.stringify({
      ...event,
      event_id: eventId,
      form_response: { ...event.form_response, token },
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const request = http.request(input.receiverUrl, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'Formline-Webhooks/1.0',
        'webhook-id': eventId,
        'webhook-timestamp': String(timestamp),
        'typeform-signature': typeformSignature(input.secret, body),
        'webhook-signature': standardWebhookSignature(input.secret, eventId, timestamp, body),
      },
    });
    // The floor does not retry: a failed POST is a lost delivery, which the bench counts.
    request.on('response', (response) => response.resume());
    request.on('error', () => undefined);
    request.end(body);
  };
  const app = Fastify({ logger: false });
  app.post('/forms/:form_id/submissions', async (_request, reply) => {
    const token = await writeSubmissionRows(pool, input);
    await reply.status(201).send({ token });
    deliver(token);
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`ready ${JSON.stringify({ url: address })}\n`);
  process.on('SIGTERM', () => void Promise.all([app.close(), pool.end()]).then(() => process.exit(0)));
}

void main();
