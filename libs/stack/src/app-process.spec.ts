import { createServer } from 'node:http';
import { readinessStatus } from './app-process';

describe('readinessStatus', () => {
  it('answers "no answer" when an app accepts the probe but never answers it (too busy, stopped)', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      await expect(readinessStatus(port, 200)).resolves.toBeUndefined();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("counts only the named process's answer when given a pid", async () => {
    const server = createServer((_request, response) =>
      response.writeHead(200, { 'x-process-id': String(process.pid) }).end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      await expect(readinessStatus(port, 2000, process.pid)).resolves.toBe(200);
      await expect(readinessStatus(port, 2000, process.pid + 1)).resolves.toBeUndefined();
      await expect(readinessStatus(port, 2000)).resolves.toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
