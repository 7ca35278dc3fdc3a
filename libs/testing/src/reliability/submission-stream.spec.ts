import { createServer, type Server } from 'node:http';
import { eventually } from '../eventually';
import { SubmissionStream } from './submission-stream';

// The clients of the fault matrix against a stand-in API (a local HTTP server
// answering what each test needs): what they retry, what they give up.
describe('SubmissionStream', () => {
  let server: Server;
  let answer: (n: number) => { status: number; body?: unknown };
  let requests = 0;
  let url = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const { status, body } = answer(requests++);
        response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
        response.end(JSON.stringify(body ?? { code: 'X', description: 'x' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/submissions`;
  });

  beforeEach(() => {
    requests = 0;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function stream(): SubmissionStream {
    return new SubmissionStream({ url, ratePerSecond: 100, body: (n) => ({ n }), retryIntervalMs: 20 });
  }

  it('retries a 408 (the request did not arrive in time) with its key, as a 503', async () => {
    answer = (n) =>
      n === 0 ? { status: 408 } : n === 1 ? { status: 503 } : { status: 201, body: { token: 't' } };
    const clients = stream();
    clients.start();
    clients.stopSending();
    expect(await clients.settle(10_000)).toBe(true);
    const figures = clients.figures();
    expect(figures).toMatchObject({ sent: 1, accepted: 1, refused: 0, pending: 0 });
    expect(figures.answers).toEqual({ '408': 1, '503': 1, '201': 1 });
  });

  it('refuses for good a 4xx that says the request is wrong', async () => {
    answer = () => ({ status: 422 });
    const clients = stream();
    clients.start();
    clients.stopSending();
    expect(await clients.settle(10_000)).toBe(true);
    expect(clients.figures()).toMatchObject({ accepted: 0, refused: 1 });
  });

  it('accepts nothing more once stopped, and counts the submissions given up as pending', async () => {
    answer = () => ({ status: 503 });
    const clients = stream();
    clients.start();
    await eventually(
      () => clients.figures().pending,
      (pending) => pending > 0,
    );
    expect(await clients.settle(100)).toBe(false);
    const unsettled = clients.figures().pending;
    expect(unsettled).toBeGreaterThan(0);
    clients.stop();
    // The API would accept them all now: the stopped clients no longer ask.
    answer = () => ({ status: 201, body: { token: 't' } });
    expect(await clients.settle(10_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(clients.accepted.size).toBe(0);
    expect(clients.figures().pending).toBe(unsettled);
  });
});
