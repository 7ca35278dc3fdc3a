import { createServer, type Server } from 'node:net';
import { freePort } from './free-port';

describe('freePort', () => {
  it('hands out distinct ports outside the kernel ephemeral range, each one bindable', async () => {
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(20_000);
    }
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
