import path from 'node:path';
import { BenchChild } from '../lib/child';

export interface ClosedLoad {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  /** 2xx answers per second. */
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
}

interface AutocannonJson {
  duration: number;
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const cli = path.join(path.dirname(require.resolve('autocannon/package.json')), 'autocannon.js');

// autocannon, closed loop (each connection sends its next request when the
// answer arrives), in its own process, through its CLI's JSON output.
export async function runAutocannon(load: ClosedLoad): Promise<LoadResult> {
  const args = [cli, '-j', '-n', '-c', String(load.connections), '-d', String(load.seconds)];
  args.push('-m', load.method ?? 'GET');
  for (const [name, value] of Object.entries(load.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (load.body !== undefined) args.push('-b', load.body);
  args.push(load.url);
  const result = await BenchChild.node(args).result<AutocannonJson>();
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
