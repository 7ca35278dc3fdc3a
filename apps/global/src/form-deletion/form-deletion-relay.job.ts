import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type FormDeletedEvent, Streams, Subjects } from '@formline/contracts';
import { BackgroundRounds } from '@formline/db';
import { ensureDurableConsumer, ensureStream, NATS_CONNECTION } from '@formline/messaging';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { FormDeletionRepository, type PendingFormDeletion } from './form-deletion.repository';

const batchSize = 100;

// Tells this region's services that a form of this region was deleted, so
// that they purge its data: form_deletions rows of this region (written with
// the form's delete, whichever region's API deleted it) are published to the
// region's FORMS stream, the event id as JetStream message id, and deleted
// once JetStream has them. A crash between the two republishes the same id,
// which JetStream's duplicate window absorbs (and the purges are idempotent
// anyway). Runs on a timer and when this process deletes a form.
// The stream keeps a deletion only until the services' durable consumers have
// it (interest retention), so their consumers are made here before anything
// is published: a deletion is never published with nobody to keep it for.
@Injectable()
export class FormDeletionRelayJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('FormDeletionRelayJob');
  private js?: JetStreamClient;
  private readonly rounds: BackgroundRounds;
  private streamReady = false;

  constructor(
    private readonly deletions: FormDeletionRepository,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(GLOBAL_CONFIG) private readonly config: GlobalConfig,
  ) {
    this.rounds = new BackgroundRounds(config.FORM_DELETION_RELAY_INTERVAL_MS, () =>
      this.drain().catch((error: unknown) =>
        this.logger.warn(`form deletion relay paused: ${String(error)}`),
      ),
    );
  }

  // The stream and its consumers are made by the first run (and again by the
  // next while JetStream does not answer): a slow JetStream never stops the
  // global service from starting.
  onApplicationBootstrap(): void {
    this.js = jetstream(this.nats, { timeout: this.config.FORM_DELETION_PUBLISH_TIMEOUT_MS });
    this.rounds.start();
    this.nudge();
  }

  private async ensureStream(): Promise<void> {
    if (this.streamReady) return;
    await ensureStream(this.nats, Streams.forms);
    for (const name of Object.values(Streams.forms.consumers)) {
      await ensureDurableConsumer(this.nats, {
        stream: Streams.forms.name,
        name,
        filterSubject: Subjects.formsFormDeleted,
        ackWaitMs: Streams.forms.consumerAckWaitMs,
      });
    }
    this.streamReady = true;
  }

  onApplicationShutdown(): Promise<void> {
    return this.rounds.stop();
  }

  // Relay soon (one round at a time: asked during one, another follows it).
  nudge(): void {
    if (this.js) void this.rounds.runOnce();
  }

  // Relays batches until none is left, or one fails.
  async drain(): Promise<void> {
    const js = this.js;
    if (!js) return;
    await this.ensureStream();
    for (;;) {
      const { claimed, published } = await this.deletions.withClaimedBatch(
        this.config.REGION,
        batchSize,
        this.config.FORM_DELETION_PUBLISH_TIMEOUT_MS + 10_000,
        (rows) => this.publish(js, rows),
      );
      if (claimed < batchSize || published < claimed || this.rounds.isStopped) return;
    }
  }

  private async publish(js: JetStreamClient, rows: PendingFormDeletion[]): Promise<string[]> {
    const settled = await Promise.allSettled(
      rows.map((row) => {
        const event: FormDeletedEvent = {
          event_id: row.id,
          form_id: row.formId,
          account_id: row.accountId,
          deleted_at: row.deletedAt.toISOString(),
        };
        return js.publish(Subjects.formsFormDeleted, JSON.stringify(event), { msgID: row.id });
      }),
    );
    settled.forEach((outcome) => {
      if (outcome.status === 'rejected')
        this.logger.warn(`a form deletion was not published yet: ${String(outcome.reason)}`);
    });
    return rows.filter((_, i) => settled[i].status === 'fulfilled').map((row) => row.id);
  }
}
