import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  jetstream,
  JetStreamError,
  jetstreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { responseSubmittedEventSchema, Streams, Subjects } from '@formline/contracts';
import { ensureStreamExists, NATS_CONNECTION, requestIdFromNatsHeaders } from '@formline/messaging';
import { leadingWithin } from '@formline/input';
import { setStreamConsumerLag } from '@formline/ops';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '@formline/app-config';
import { DeliveryPlanner, type PlannableEvent } from '../delivery/delivery.planner';

// How long planning waits for more events to join a batch. Every batch costs
// the same round trips (the webhooks read, the deliveries' insert, the job's
// add) and then a first-attempts job in the dispatcher with its own (the
// attempts' start and record), whatever it holds: a few milliseconds more
// before the first delivery of a batch buys fewer of all of them for every
// event of a busy region.
const planLingerMs = 4;

// Events are bounded in bytes as well as in number: an event carries a
// response and its form's questions, up to 900 KiB, so a batch of 100 could
// be 90 MB. A batch is planned from at most eventBatchBytes, and this process
// takes from JetStream no more than twice that: each pull asks for as many
// messages as the room left holds at the largest size NATS carries, and the
// next pull waits for room. A continuous pull (nats.js's consume) asks for
// WEBHOOK_EVENT_BATCH_SIZE messages whatever their size, so while planning
// stalled what it had asked for still came: 100 events, about 100 MB of large
// ones (1 GB at the setting's bound). Pulls stay counted in messages: a
// nats.js pull in bytes that ends on its count waits out two missed
// heartbeats (30 s).
export const eventBatchBytes = 8 * 1024 * 1024;

// The durable consumer every replica of the service shares: JetStream keeps its
// position, so events submitted while the service was down are read on return.
export const submissionConsumerName = Streams.responses.consumers.webhooks;

// Reads submission events and turns them into delivery jobs, as many at once
// as have arrived (up to WEBHOOK_EVENT_BATCH_SIZE and eventBatchBytes): while one batch is being
// planned the next one gathers, and a short batch waits planLingerMs for more,
// so a quiet stream plans each event a moment after it comes and a busy one
// plans in bulk. A message is acknowledged only once its jobs are
// on the queue; a crash before that makes JetStream send it again (after
// ack_wait, kept short because messages held here are reported as in
// progress), and the deterministic job ids and unique delivery rows make the
// second pass add nothing twice.
@Injectable()
export class SubmissionConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SubmissionConsumer');
  private messages?: ConsumerMessages;
  private running?: Promise<void>;
  private stopped = false;
  private lagTimer?: NodeJS.Timeout;
  private progressTimer?: NodeJS.Timeout;
  // Received and not yet acknowledged, in arrival order, and their bytes.
  private held: JsMsg[] = [];
  private heldBytes = 0;
  private planning?: Promise<void>;
  private room?: () => void;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    private readonly planner: DeliveryPlanner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureStreamExists(this.nats, {
      ...Streams.responses,
      maxAgeMs: this.config.RESPONSES_STREAM_MAX_AGE_MS,
    });
    const manager = await jetstreamManager(this.nats);
    const ackWait = nanos(this.config.WEBHOOK_EVENT_ACK_WAIT_MS);
    try {
      await manager.consumers.info(Streams.responses.name, submissionConsumerName);
      await manager.consumers.update(Streams.responses.name, submissionConsumerName, { ack_wait: ackWait });
    } catch (error) {
      if (!/consumer not found/i.test(String(error))) throw error;
      await manager.consumers.add(Streams.responses.name, {
        durable_name: submissionConsumerName,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: Subjects.responsesResponseSubmitted,
        ack_wait: ackWait,
        max_deliver: -1,
      });
    }
    this.running = this.run();
    this.lagTimer = setInterval(() => void this.reportLag(manager), 5000);
    // Events held here are still being worked on: JetStream must not hand them to another replica.
    this.progressTimer = setInterval(
      () => this.held.forEach((message) => message.working()),
      Math.max(500, Math.floor(this.config.WEBHOOK_EVENT_ACK_WAIT_MS / 3)),
    );
  }

  // How far the consumer is behind the stream, for the consumer-lag gauge.
  private async reportLag(manager: Awaited<ReturnType<typeof jetstreamManager>>): Promise<void> {
    try {
      const info = await manager.consumers.info(Streams.responses.name, submissionConsumerName);
      setStreamConsumerLag(
        Streams.responses.name,
        submissionConsumerName,
        info.num_pending + info.num_ack_pending,
      );
    } catch {
      // NATS away: the gauge keeps its last value until it answers again.
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.lagTimer);
    clearInterval(this.progressTimer);
    await this.messages?.close();
    this.room?.();
    await this.running;
    await this.planning;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const consumer = await jetstream(this.nats).consumers.get(
          Streams.responses.name,
          submissionConsumerName,
        );
        while (!this.stopped) {
          const count = await this.roomToPull();
          if (this.stopped) return;
          this.messages = await consumer.fetch({ max_messages: count, expires: 30_000 });
          try {
            for await (const message of this.messages) {
              this.held.push(message);
              this.heldBytes += message.data.length;
              this.planSoon();
            }
          } catch (error) {
            if (!isPullCutShort(error)) throw error;
          }
        }
      } catch (error) {
        if (this.stopped) return;
        this.logger.warn(`submission consumer paused: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  // Waits until the room left (two batches, in number and in bytes) holds at
  // least one message of the largest size NATS carries; answers how many
  // such messages it holds. With nothing held, one message always fits.
  private async roomToPull(): Promise<number> {
    const batchSize = this.config.WEBHOOK_EVENT_BATCH_SIZE;
    // The server counts a message's subject and headers too.
    const largest = (this.nats.info?.max_payload ?? 1024 * 1024) + 64 * 1024;
    const room = () =>
      Math.min(
        2 * batchSize - this.held.length,
        Math.floor((2 * eventBatchBytes - this.heldBytes) / largest),
      );
    while (this.held.length > 0 && room() < 1 && !this.stopped) {
      await new Promise<void>((resolve) => (this.room = resolve));
    }
    return Math.max(1, room());
  }

  // Plans what is held, batch after batch, one batch at a time. A batch short
  // of WEBHOOK_EVENT_BATCH_SIZE waits planLingerMs for more to arrive first.
  private planSoon(): void {
    this.planning ??= (async () => {
      const batchSize = this.config.WEBHOOK_EVENT_BATCH_SIZE;
      while (this.held.length > 0) {
        if (this.held.length < batchSize && this.heldBytes < eventBatchBytes && !this.stopped) {
          await new Promise((resolve) => setTimeout(resolve, planLingerMs));
        }
        const count = leadingWithin(this.held, (message) => message.data.length, eventBatchBytes, batchSize);
        const batch = this.held.slice(0, count);
        await this.handle(batch);
        this.held = this.held.slice(count);
        this.heldBytes -= batch.reduce((bytes, message) => bytes + message.data.length, 0);
        this.room?.();
      }
    })().finally(() => {
      this.planning = undefined;
      // A message that arrived between the loop's last check and now.
      if (this.held.length > 0) this.planSoon();
    });
  }

  private async handle(messages: JsMsg[]): Promise<void> {
    const events: PlannableEvent[] = [];
    const planned: JsMsg[] = [];
    for (const message of messages) {
      const parsed = responseSubmittedEventSchema.safeParse(parseJson(message));
      if (!parsed.success) {
        // Not an event this version understands: redelivering it would never help.
        this.logger.error(`unreadable submission event (stream seq ${message.seq}) skipped`);
        message.term();
        continue;
      }
      events.push({ event: parsed.data, requestId: requestIdFromNatsHeaders(message.headers) });
      planned.push(message);
    }
    try {
      await this.planner.plan(events);
      for (const message of planned) message.ack();
    } catch (error) {
      this.logger.warn(`${events.length} submission events not planned yet: ${String(error)}`);
      for (const message of planned) message.nak(1000);
    }
  }
}

// A pull that ended early through no fault of this consumer's, pulled again
// at once: its server handed the stream to another (a leader changed, a
// server shutting down), or two heartbeats went missing (which a server that
// drops the end of an idle pull leaves as its only end). Anything else (the
// consumer deleted, NATS away) pauses the consumer a second first.
export function isPullCutShort(error: unknown): boolean {
  if (!(error instanceof JetStreamError)) return false;
  const reason = error.message.toLowerCase();
  return reason === 'heartbeats missed' || reason === 'leadership change' || reason === 'server shutdown';
}

function parseJson(message: JsMsg): unknown {
  try {
    return message.json();
  } catch {
    return undefined;
  }
}
