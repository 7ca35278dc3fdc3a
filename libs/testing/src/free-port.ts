import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { testPortSlice } from './test-infra';

// Test ports are taken below the kernel's ephemeral range (32768-60999 on
// Linux): a port the kernel hands out for `listen(0)` can be taken again by
// any outgoing connection (to PostgreSQL, NATS, Redis) before the app it was
// meant for binds it, and the app then dies with EADDRINUSE. Below 20000, so
// that the test profile's servers (24222-26380) and engineers' 27xxx ports
// are never handed out either.
const lowest = 10_000;
const highest = 19_999;

// Several Jest workers on e2e specs each draw from a slice of their own
// (TEST_PORT_SLICE, `k/n`: the k-th of n, set per lane by
// test/e2e/lane-env.js): two workers drawing from one range would, now and
// then, hand out one port twice.
export function portRange(slice = testPortSlice()): { lowest: number; highest: number } {
  const parsed = /^(\d{1,2})\/(\d{1,2})$/.exec(slice ?? '');
  const [k, n] = parsed ? [Number(parsed[1]), Number(parsed[2])] : [1, 1];
  if (n < 1 || k < 1 || k > n) return { lowest, highest };
  const size = Math.floor((highest - lowest + 1) / n);
  return { lowest: lowest + size * (k - 1), highest: lowest + size * k - 1 };
}

// Ports this process has handed out: a probe closes the port again, and two
// apps given one port would answer for each other.
const handedOut = new Set<number>();

// A port nobody listens on right now, never one this process handed out before.
export async function freePort(): Promise<number> {
  const range = portRange();
  for (let tries = 0; tries < 1000; tries++) {
    const port = randomInt(range.lowest, range.highest + 1);
    if (handedOut.has(port)) continue;
    // Taken before the probe, so that concurrent callers never share a port.
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${range.lowest} and ${range.highest}`);
}

// The ports of a profile of its own (scripts/profile.sh's variables), for a
// test that runs the scripts on servers apart from the shared ones.
export async function freeProfilePorts(): Promise<Record<string, string>> {
  const names = ['PG_PORT', 'NATS_PORT_US', 'NATS_PORT_EU', 'REDIS_PORT_US', 'REDIS_PORT_EU'];
  const ports: Record<string, string> = {};
  for (const name of names) ports[name] = String(await freePort());
  return ports;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
