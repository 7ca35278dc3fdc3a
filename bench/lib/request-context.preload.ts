import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';

// A probe of what a request context would cost, loaded into each app with
// BENCH_NODE_OPTIONS='--require <checkout>/dist/bench/lib/request-context.preload.js':
// every HTTP request the process serves runs inside an AsyncLocalStorage
// context holding its number, as a request-scoped logger would have it. The
// gateway itself keeps none (docs/decisions/performance.md, "Request context on Node 26").
const context = new AsyncLocalStorage<{ request: number }>();
// Called with each server as `this`, as the original is.
// eslint-disable-next-line @typescript-eslint/unbound-method
const emit = http.Server.prototype.emit;
let requests = 0;
http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
  if (event === 'request') return context.run({ request: ++requests }, () => emit.call(this, event, ...args));
  return emit.call(this, event, ...args);
};
