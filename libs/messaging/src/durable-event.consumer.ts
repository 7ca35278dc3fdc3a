import { type ConsumerMessages, jetstream, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { z } from 'zod';
import {
  type DurableConsumerDefinition,
  ensureDurableConsumer,
  ensureStreamExists,
  type StreamDefinition,
} from './jetstream';

export interface DurableEventConsumerOptions<S extends z.ZodType> {
  stream: StreamDefinition;
  consumer: Omit<DurableConsumerDefinition, 'stream'>;
  schema: S;
  /** Takes one event; a throw leaves it to be sent again. */
  handle(event: z.output<S>): Promise<void>;
  log: { warn(message: string): void; error(message: string): void };
  /** The wait before an event that failed is sent again. */
  retryMs?: number;
}

// One service's durable JetStream consumer of one kind of event, one event at
// a time: acknowledged once handled, sent again (by JetStream, to any replica)
// when handling failed or the process died first, and dropped with an error
// log when no version of this code could read it. Handlers are idempotent.
export class DurableEventConsumer<S extends z.ZodType> {
  private messages?: ConsumerMessages;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly nats: NatsConnection,
    private readonly options: DurableEventConsumerOptions<S>,
  ) {}

  // Returns at once: the stream and consumer are made in the loop, which
  // retries while JetStream does not answer, so a slow JetStream never stops
  // the service from starting.
  start(): Promise<void> {
    this.running = this.run();
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.messages?.close();
    await this.running;
  }

  private async run(): Promise<void> {
    const { stream, consumer, log } = this.options;
    while (!this.stopped) {
      try {
        await ensureStreamExists(this.nats, stream);
        await ensureDurableConsumer(this.nats, { ...consumer, stream: stream.name });
        const source = await jetstream(this.nats).consumers.get(stream.name, consumer.name);
        this.messages = await source.consume({ max_messages: 10 });
        for await (const message of this.messages) await this.take(message);
      } catch (error) {
        if (this.stopped) return;
        log.warn(`${consumer.name} paused: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async take(message: JsMsg): Promise<void> {
    const { schema, log, consumer } = this.options;
    const parsed = schema.safeParse(parseJson(message));
    if (!parsed.success) {
      // Redelivering it would never help.
      log.error(`${consumer.name}: unreadable event (stream seq ${message.seq}) skipped`);
      message.term();
      return;
    }
    try {
      await this.options.handle(parsed.data);
      message.ack();
    } catch (error) {
      log.warn(`${consumer.name}: event (stream seq ${message.seq}) not taken yet: ${String(error)}`);
      message.nak(this.options.retryMs ?? 1000);
    }
  }
}

function parseJson(message: JsMsg): unknown {
  try {
    return message.json();
  } catch {
    return undefined;
  }
}
