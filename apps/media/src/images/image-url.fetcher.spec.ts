import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@formline/errors';
import { OutboundUrlPolicy } from '@formline/outbound-url';
import { fetchImageUrl } from './image-url.fetcher';

const limits = { maxBytes: 1024, timeoutMs: 200 };

async function failure(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('fetchImageUrl', () => {
  it('cuts a look-up of the host that outlasts the fetch deadline', async () => {
    let asked = '';
    let signalled: AbortSignal | undefined;
    // A name server that never answers, and does not heed the signal either.
    const silent = (host: string, signal: AbortSignal) => {
      asked = host;
      signalled = signal;
      return new Promise<string[]>(() => undefined);
    };
    const started = performance.now();
    const error = await failure(
      fetchImageUrl('https://images.example.com/a.png', new OutboundUrlPolicy([]), limits, silent),
    );
    const tookMs = performance.now() - started;
    expect(asked).toBe('images.example.com');
    expect(signalled?.aborted).toBe(true);
    expect(error.details?.[0]).toMatchObject({ code: 'INVALID_URL', field: 'url' });
    expect(error.description).toMatch(/did not answer within 200 ms/);
    expect(tookMs).toBeGreaterThanOrEqual(150);
    expect(tookMs).toBeLessThan(2_000);
  });

  it('refuses a host whose look-up names an internal address, without connecting', async () => {
    const error = await failure(
      fetchImageUrl('https://images.example.com/a.png', new OutboundUrlPolicy([]), limits, () =>
        Promise.resolve(['93.184.216.34', '10.0.0.7']),
      ),
    );
    expect(error.description).toMatch(/internal, private or reserved address/);
    expect(error.description).not.toMatch(/10\.0\.0\.7/);
  });

  describe('the connection', () => {
    let server: Server;
    let port: number;
    let connections = 0;

    beforeAll(async () => {
      // Not TLS: the handshake fails, but the socket shows where the fetch went.
      server = createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('goes to the address the look-up answered and the policy checked, with no second look-up', async () => {
      let lookups = 0;
      // The name is not in any DNS: only the checked address can be reached.
      const error = await failure(
        fetchImageUrl(
          `https://images.invalid:${port}/a.png`,
          new OutboundUrlPolicy(['127.0.0.1']),
          limits,
          () => {
            lookups += 1;
            return Promise.resolve(['127.0.0.1']);
          },
        ),
      );
      expect(error.description).toMatch(/cannot be reached/);
      expect(lookups).toBe(1);
      expect(connections).toBe(1);
    });
  });
});
