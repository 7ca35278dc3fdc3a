import { bearerTokenFrom, hashAccessToken, isBearerTokenShape } from '@formline/tokens';
import Fastify from 'fastify';

// The read path's baseline: bare Fastify answering the same form JSON, with
// the same bearer check as the gateway (the header's shape, the token's
// SHA-256, a lookup of the hash), and nothing else: no NATS, no database.
interface Input {
  body: string;
  etag: string;
  tokenHashes: string[];
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]) as Input;
  const known = new Set(input.tokenHashes);
  const app = Fastify({ logger: false });
  app.get('/forms/:form_id', (request, reply) => {
    const token = bearerTokenFrom(request.headers.authorization);
    if (!token || !isBearerTokenShape(token) || !known.has(hashAccessToken(token))) {
      return reply.status(401).send({ code: 'INVALID_TOKEN', description: 'The access token is not valid.' });
    }
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('ETag', input.etag)
      .send(input.body);
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`ready ${JSON.stringify({ url: address })}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
