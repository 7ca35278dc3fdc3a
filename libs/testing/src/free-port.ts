import { createServer } from 'node:net';

// Ports this process has handed out: the kernel may offer a port again once
// its probe is closed, before the app it was meant for has bound it, and two
// apps given one port would answer for each other.
const handedOut = new Set<number>();

// A port nobody listens on right now, chosen by the kernel, never one this
// process handed out before.
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probePort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function probePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
