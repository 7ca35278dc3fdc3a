import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { RetentionPruner } from '@formline/db';
import { RESPONSES_CONFIG, type ResponsesConfig } from '../responses.config';
import { OutboxRepository } from './outbox.repository';

// Deletes published outbox rows after OUTBOX_RETENTION_MS, in small batches,
// one replica at a time. Rows set aside are kept for an operator.
@Injectable()
export class OutboxRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly pruner: RetentionPruner;

  constructor(store: OutboxRepository, @Inject(RESPONSES_CONFIG) config: ResponsesConfig) {
    this.pruner = new RetentionPruner(
      [
        {
          name: 'outbox_events',
          pruneBatch: (size) => store.prunePublished(new Date(Date.now() - config.OUTBOX_RETENTION_MS), size),
        },
      ],
      { intervalMs: config.RETENTION_INTERVAL_MS, batchSize: config.RETENTION_BATCH_SIZE, pauseMs: 50 },
      new Logger('OutboxRetention'),
    );
  }

  onApplicationBootstrap(): void {
    this.pruner.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.pruner.stop();
  }
}
