import { createServer, type Server } from 'node:net';
import { freePort, portRange } from './free-port';

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

  it('splits the range between lanes, one slice each, and keeps it whole when told nothing it can use', () => {
    expect(portRange('1/2')).toEqual({ lowest: 10_000, highest: 14_999 });
    expect(portRange('2/2')).toEqual({ lowest: 15_000, highest: 19_999 });
    expect(portRange('3/3').highest).toBeLessThanOrEqual(19_999);
    for (const unusable of [undefined, '', '3/2', '0/2', 'all']) {
      expect(portRange(unusable)).toEqual({ lowest: 10_000, highest: 19_999 });
    }
  });
});
