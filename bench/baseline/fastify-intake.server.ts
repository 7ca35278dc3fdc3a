import Fastify from 'fastify';
import { Pool } from 'pg';
import { writeSubmissionRows, type SubmissionRows } from '../lib/intake-transaction';

// The intake's HTTP floor: bare Fastify taking the same POST and running the
// raw baseline's transaction in the handler. Against the raw transaction it
// shows what any HTTP service (and the load generator beside it) costs on
// these cores; against it, the stack floor shows what NestJS and one NATS hop add.
interface Input extends SubmissionRows {
  databaseUrl: string;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]) as Input;
  const pool = new Pool({ connectionString: input.databaseUrl, max: 10 });
  const app = Fastify({ logger: false });
  app.post('/forms/:form_id/submissions', async (_request, reply) => {
    const id = await writeSubmissionRows(pool, input);
    return reply.status(201).send({ id });
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`ready ${JSON.stringify({ url: address })}\n`);
  process.on('SIGTERM', () => void Promise.all([app.close(), pool.end()]).then(() => process.exit(0)));
}

void main();
