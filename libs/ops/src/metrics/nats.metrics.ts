import { Histogram } from 'prom-client';
import { metricsRegistry } from './metrics.registry';

// Calls between services over NATS, seen from both ends: the caller's wait
// (RpcClient) and the handler's work (the services' interceptor). The
// difference between the two is time on the bus and in queues.
//   ok           the reply carried a result
//   error        the reply carried an error body (a domain error: not found, invalid...)
//   unavailable  no reply: no service listening, timeout, or the bus is down
export type NatsOutcome = 'ok' | 'error' | 'unavailable';

const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export const natsRequestDuration = new Histogram({
  name: 'formline_nats_request_duration_seconds',
  help: 'Time a NATS request waited for its reply, by subject and outcome (ok, error, unavailable).',
  labelNames: ['subject', 'outcome'] as const,
  buckets,
  registers: [metricsRegistry],
});

export const natsHandlerDuration = new Histogram({
  name: 'formline_nats_handler_duration_seconds',
  help: 'Time a service took to handle a NATS request, by subject and outcome (ok, error).',
  labelNames: ['subject', 'outcome'] as const,
  buckets,
  registers: [metricsRegistry],
});
