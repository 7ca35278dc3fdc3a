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
  jetstreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { responseSubmittedEventSchema, Streams, Subjects } from '@formline/contracts';
import { ensureStream, requestIdFromNatsHeaders } from '@formline/messaging';
import { runWithRequestId, setStreamConsumerLag } from '@formline/ops';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_NATS } from '../webhooks.tokens';
import { DeliveryPlanner } from '../delivery/delivery.planner';

// The durable consumer every replica of the service shares: JetStream keeps its
// position, so events submitted while the service was down are read on return.
export const submissionConsumerName = 'webhooks-submissions';

// Reads submission events and turns each into delivery jobs. A message is
// acknowledged only once its jobs are on the queue; a crash before that makes
// JetStream send it again (after ack_wait), and the deterministic job ids and
// unique delivery rows make the second pass add nothing twice.
@Injectable()
export class SubmissionConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SubmissionConsumer');
  private messages?: ConsumerMessages;
  private running?: Promise<void>;
  private stopped = false;
  private lagTimer?: NodeJS.Timeout;

  constructor(
    @Inject(WEBHOOKS_NATS) private readonly nats: NatsConnection,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    private readonly planner: DeliveryPlanner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureStream(this.nats, Streams.responses);
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
    await this.messages?.close();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const consumer = await jetstream(this.nats).consumers.get(
          Streams.responses.name,
          submissionConsumerName,
        );
        this.messages = await consumer.consume({ max_messages: 100 });
        for await (const message of this.messages) await this.handle(message);
      } catch (error) {
        if (this.stopped) return;
        this.logger.warn(`submission consumer paused: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async handle(message: JsMsg): Promise<void> {
    const parsed = responseSubmittedEventSchema.safeParse(message.json());
    if (!parsed.success) {
      // Not an event this version understands: keeping it would block nothing
      // (each message is acked on its own), redelivering it would never help.
      this.logger.error(`unreadable submission event (stream seq ${message.seq}) skipped`);
      message.term();
      return;
    }
    try {
      // The submission's request id travels on in the jobs and the logs.
      await runWithRequestId(requestIdFromNatsHeaders(message.headers), () => this.planner.plan(parsed.data));
      message.ack();
    } catch (error) {
      this.logger.warn(`event ${parsed.data.event_id} not planned yet: ${String(error)}`);
      message.nak(1000);
    }
  }
}
