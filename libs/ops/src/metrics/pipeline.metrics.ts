import { Counter, Gauge, Histogram, type Metric } from 'prom-client';
import { metricsRegistry } from './metrics.registry';

// The metrics of the submission pipeline (outbox, stream, delivery queue:
// docs/architecture.md, "How they talk"),
// declared once here and fed by the apps that own each stage:
//   responses   outbox backlog, age     setOutboxStats(), recordOutboxDeadLetters(),
//                                       recordOutboxFastPathMissed()
//   webhooks    stream consumer lag     setStreamConsumerLag()
//   dispatcher  queue depth             setQueueDepth()
//               delivery attempts       recordDeliveryAttempt()
//               delivery latency        recordDeliveryLatency()
// Each app exposes only its own stage's series (exposePipelineMetrics in its
// main), so a sum over the region is never diluted by other apps' zeros.

export const outboxBacklog = new Gauge({
  name: 'formline_outbox_backlog',
  help: 'Outbox rows written with a submission and not yet published to the event stream.',
  registers: [],
});

// Alert when it keeps growing (docs/decisions/webhooks-and-delivery.md, "Outbox
// relay: rows it cannot publish, backlog alerts"): the relay is stuck or NATS has been away too long.
export const outboxOldestAge = new Gauge({
  name: 'formline_outbox_oldest_age_seconds',
  help: 'Age of the oldest outbox row not yet published (0 when the outbox is empty).',
  registers: [],
});

export const outboxDeadLetters = new Gauge({
  name: 'formline_outbox_dead_letters',
  help: 'Outbox rows the relay set aside after OUTBOX_MAX_ATTEMPTS failed publishes; each needs an operator.',
  registers: [],
});

export const outboxDeadLetteredTotal = new Counter({
  name: 'formline_outbox_dead_lettered_total',
  help: 'Outbox rows set aside by this process since it started.',
  registers: [],
});

// Events their writer could not publish and mark at once (NATS away or slow,
// the database refusing the mark): each waits for the poller, a few seconds
// late. A steady rate says the fast path is not working.
export const outboxFastPathMissedTotal = new Counter({
  name: 'formline_outbox_fast_path_missed_total',
  help: 'Events this process committed and could not publish and mark at once; the outbox poller relays them.',
  registers: [],
});

export const streamConsumerLag = new Gauge({
  name: 'formline_stream_consumer_lag',
  help: 'Messages of an event stream its durable consumer has not yet acknowledged, by stream and consumer.',
  labelNames: ['stream', 'consumer'] as const,
  registers: [],
});

export const queueStates = ['waiting', 'active', 'delayed', 'failed'] as const;
export type QueueState = (typeof queueStates)[number];

export const queueDepth = new Gauge({
  name: 'formline_queue_depth',
  help: 'Jobs in a BullMQ queue, by queue and state (waiting, active, delayed, failed).',
  labelNames: ['queue', 'state'] as const,
  registers: [],
});

// How one webhook delivery attempt ended:
//   delivered      the receiver answered 2xx
//   http_error     it answered anything else (410 Gone included)
//   timeout        no answer in time
//   network_error  no connection (DNS, refused, TLS)
export const deliveryOutcomes = ['delivered', 'http_error', 'timeout', 'network_error'] as const;
export type DeliveryOutcome = (typeof deliveryOutcomes)[number];

export const deliveryAttemptsTotal = new Counter({
  name: 'formline_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome (delivered, http_error, timeout, network_error).',
  labelNames: ['outcome'] as const,
  registers: [],
});

export const deliveryAttemptDuration = new Histogram({
  name: 'formline_delivery_attempt_duration_seconds',
  help: 'Duration of one webhook delivery attempt (the HTTP POST), by outcome.',
  labelNames: ['outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [],
});

export const deliveryLatency = new Histogram({
  name: 'formline_delivery_latency_seconds',
  help: 'Time from a submission being accepted to its webhook delivery succeeding, retries included.',
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 36000],
  registers: [],
});

export function setOutboxBacklog(rows: number): void {
  outboxBacklog.set(rows);
}

export function setOutboxStats(stats: {
  backlog: number;
  oldestAgeSeconds: number;
  deadLettered: number;
}): void {
  outboxBacklog.set(stats.backlog);
  outboxOldestAge.set(stats.oldestAgeSeconds);
  outboxDeadLetters.set(stats.deadLettered);
}

export function recordOutboxDeadLetters(rows: number): void {
  if (rows > 0) outboxDeadLetteredTotal.inc(rows);
}

export function recordOutboxFastPathMissed(): void {
  outboxFastPathMissedTotal.inc();
}

export function setStreamConsumerLag(stream: string, consumer: string, messages: number): void {
  streamConsumerLag.set({ stream, consumer }, messages);
}

// Counts as BullMQ's `queue.getJobCounts(...queueStates)` returns them.
export function setQueueDepth(queue: string, counts: Partial<Record<QueueState, number>>): void {
  for (const state of queueStates) queueDepth.set({ queue, state }, counts[state] ?? 0);
}

export function recordDeliveryAttempt(outcome: DeliveryOutcome, seconds: number): void {
  deliveryAttemptsTotal.inc({ outcome });
  deliveryAttemptDuration.observe({ outcome }, seconds);
}

export function recordDeliveryLatency(seconds: number): void {
  deliveryLatency.observe(seconds);
}

const stages = {
  outbox: [
    outboxBacklog,
    outboxOldestAge,
    outboxDeadLetters,
    outboxDeadLetteredTotal,
    outboxFastPathMissedTotal,
  ],
  stream: [streamConsumerLag],
  queue: [queueDepth],
  delivery: [deliveryAttemptsTotal, deliveryAttemptDuration, deliveryLatency],
} satisfies Record<string, Metric[]>;
export type PipelineStage = keyof typeof stages;

// Serves a stage's series on this process's /metrics, at zero until fed.
export function exposePipelineMetrics(...stageNames: PipelineStage[]): void {
  for (const stage of stageNames) {
    for (const metric of stages[stage] as Metric[]) {
      const name = (metric as unknown as { name: string }).name;
      if (!metricsRegistry.getSingleMetric(name)) metricsRegistry.registerMetric(metric);
    }
    if (stage === 'delivery') {
      for (const outcome of deliveryOutcomes) {
        deliveryAttemptsTotal.inc({ outcome }, 0);
        deliveryAttemptDuration.zero({ outcome });
      }
    }
  }
}
