import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppProcess, readinessStatus } from './app-process';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The stand-in apps' folders, removed after the specs.
const fakeAppDirs: string[] = [];
afterAll(() => fakeAppDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// A stand-in app: answers its ops port with its own pid when `serves`, else only sleeps.
function fakeApp(serves: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'app-process-'));
  fakeAppDirs.push(dir);
  const entry = path.join(dir, 'main.js');
  writeFileSync(
    entry,
    serves
      ? `require('node:http').createServer((q, r) => r.writeHead(200, { 'x-process-id': String(process.pid) }).end('{}')).listen(Number(process.env.OPS_PORT), '127.0.0.1');`
      : `setInterval(() => undefined, 1000);`,
  );
  return entry;
}

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

describe('AppProcess.waitReady', () => {
  it("is not fooled by another process's answer on its ops port (an app that died on EADDRINUSE)", async () => {
    const impostor = createServer((_request, response) =>
      response.writeHead(200, { 'x-process-id': String(process.pid) }).end('{}'),
    );
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const opsPort = (impostor.address() as { port: number }).port;
    const app = new AppProcess({
      label: 'sleeper',
      entry: fakeApp(false),
      env: {},
      opsPort,
      onLine: () => undefined,
    });
    try {
      await expect(app.waitReady(600)).rejects.toThrow('was not ready');
    } finally {
      await app.stop(1000);
      impostor.closeAllConnections();
      await new Promise((resolve) => impostor.close(resolve));
    }
  });

  it('is ready when the app itself answers', async () => {
    const opsPort = await freePort();
    const app = new AppProcess({
      label: 'server',
      entry: fakeApp(true),
      env: { OPS_PORT: String(opsPort) },
      opsPort,
      onLine: () => undefined,
    });
    try {
      await expect(app.waitReady(10_000)).resolves.toBeUndefined();
    } finally {
      await app.stop(1000);
    }
  });
});
