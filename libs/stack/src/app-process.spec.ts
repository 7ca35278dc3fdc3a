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
});
