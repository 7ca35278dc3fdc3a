import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export interface StreamEvent {
  /** The JetStream message id (Nats-Msg-Id): the event id. */
  messageId: string | undefined;
  /** The X-Request-Id header: the request id of the submission the event announces. */
  requestId: string | undefined;
  data: any;
}

// Every message a stream holds now, read with an ordered consumer, as a test
// checks what was published.
export async function readStreamEvents(natsUrl: string, stream: string): Promise<StreamEvent[]> {
  const connection = await connect({ servers: natsUrl });
  try {
    const total = (await (await jetstreamManager(connection)).streams.info(stream)).state.messages;
    const events: StreamEvent[] = [];
    if (total === 0) return events;
    const consumer = await jetstream(connection).consumers.get(stream);
    const messages = await consumer.fetch({ max_messages: total, expires: 5000 });
    for await (const message of messages) {
      events.push({
        messageId: message.headers?.get('Nats-Msg-Id'),
        requestId: message.headers?.get('X-Request-Id') || undefined,
        data: message.json(),
      });
      if (events.length >= total) break;
    }
    return events;
  } finally {
    await connection.close();
  }
}

// Polls until the condition holds on the stream's events (the relay publishes
// asynchronously), or returns the last read.
export async function eventuallyStreamEvents(
  natsUrl: string,
  stream: string,
  done: (events: StreamEvent[]) => boolean,
  timeoutMs = 15_000,
): Promise<StreamEvent[]> {
  const deadline = Date.now() + timeoutMs;
  let events = await readStreamEvents(natsUrl, stream);
  while (!done(events) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    events = await readStreamEvents(natsUrl, stream);
  }
  return events;
}
