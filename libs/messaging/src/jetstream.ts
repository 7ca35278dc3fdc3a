import { AckPolicy, DeliverPolicy, jetstreamManager, RetentionPolicy } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';

export interface StreamDefinition {
  name: string;
  subjects: readonly string[];
  duplicateWindowMs: number;
  /**
   * `interest`: a message is kept only until every consumer of the stream has
   * acknowledged it (its consumers must exist before anything is published:
   * see ensureDurableConsumer). Limits (the default) keep it until the
   * stream's limits. Fixed when the stream is created.
   */
  retention?: 'limits' | 'interest';
  /** How long a message is kept at most; without it, until the other limits. */
  maxAgeMs?: number;
}

// The stream's owner (the service that publishes to it) at start: creates
// the stream when it is missing, or brings its subjects, de-duplication window
// and age limit up to date; file storage, kept until its limits. Only its
// owner calls this: a consumer reading its own settings could undo the
// owner's (consumers call ensureStreamExists).
// Only features of NATS 2.9 are used: that is the nats-server the Debian
// packages give `npm start` and `npm test`.
export async function ensureStream(connection: NatsConnection, stream: StreamDefinition): Promise<void> {
  const manager = await jetstreamManager(connection);
  const config = streamConfig(stream);
  try {
    await manager.streams.info(stream.name);
    await manager.streams.update(stream.name, config);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    await manager.streams.add(config);
  }
}

// A consumer at start: the stream is created as defined when its owner has
// not started yet (a durable consumer needs its stream, and an interest
// stream keeps only what its consumers will read), and left as it is when it
// exists, its owner's settings standing.
export async function ensureStreamExists(
  connection: NatsConnection,
  stream: StreamDefinition,
): Promise<void> {
  const manager = await jetstreamManager(connection);
  try {
    await manager.streams.info(stream.name);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    try {
      await manager.streams.add(streamConfig(stream));
    } catch (raced) {
      // The owner, or another consumer, created it in between.
      if (!/already in use|exists/i.test(String(raced))) throw raced;
    }
  }
}

function streamConfig(stream: StreamDefinition) {
  return {
    name: stream.name,
    subjects: [...stream.subjects],
    duplicate_window: nanos(stream.duplicateWindowMs),
    retention: stream.retention === 'interest' ? RetentionPolicy.Interest : RetentionPolicy.Limits,
    // 0: no age limit.
    max_age: nanos(stream.maxAgeMs ?? 0),
  };
}

function isStreamNotFound(error: unknown): boolean {
  return error instanceof Error && /stream not found/i.test(error.message);
}

export interface DurableConsumerDefinition {
  stream: string;
  name: string;
  filterSubject: string;
  ackWaitMs: number;
}

// Creates the durable consumer when it is missing (from the stream's first
// message, explicit acks, redelivered until acknowledged), or brings its ack
// wait up to date.
export async function ensureDurableConsumer(
  connection: NatsConnection,
  consumer: DurableConsumerDefinition,
): Promise<void> {
  const manager = await jetstreamManager(connection);
  const ackWait = nanos(consumer.ackWaitMs);
  try {
    await manager.consumers.info(consumer.stream, consumer.name);
    await manager.consumers.update(consumer.stream, consumer.name, { ack_wait: ackWait });
  } catch (error) {
    if (!/consumer not found/i.test(String(error))) throw error;
    await manager.consumers.add(consumer.stream, {
      durable_name: consumer.name,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: consumer.filterSubject,
      ack_wait: ackWait,
      max_deliver: -1,
    });
  }
}
