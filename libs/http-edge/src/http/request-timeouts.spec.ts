import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { answerIdleSockets } from './request-timeouts';

// A server whose handler never answers, its idle limit short: what the
// client reads once the socket has been silent past it.
describe('answers to a socket silent past the idle limit', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer(() => undefined);
    server.setTimeout(200);
    answerIdleSockets(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const answerTo = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });

  it('503 with Retry-After when the whole request had arrived: the server was the slow one', async () => {
    const answer = await answerTo('GET /images/x/sizes/1 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(answer).toContain('\r\nRetry-After: 1\r\n');
    expect(answer).toContain('"code":"SERVICE_UNAVAILABLE"');
  });

  it('408 while the body was still awaited from the client', async () => {
    const answer = await answerTo('POST /forms HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{"a"');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
  });
});
