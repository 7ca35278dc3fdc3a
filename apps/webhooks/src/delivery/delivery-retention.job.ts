import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { RetentionPruner, retentionSettingsOf } from '@formline/db';
import { DeliveryRepository } from '@formline/webhook-delivery';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '@formline/app-config';

// Deletes finished deliveries and their attempts after DELIVERY_RETENTION_MS,
// in small batches, one replica at a time. Pending deliveries are kept. The
// record of a deleted response goes once no event of it can come any more
// (RESPONSES_STREAM_MAX_AGE_MS).
@Injectable()
export class DeliveryRetentionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly pruner: RetentionPruner;

  constructor(deliveries: DeliveryRepository, @Inject(WEBHOOKS_CONFIG) config: WebhooksConfig) {
    this.pruner = new RetentionPruner(
      [
        {
          name: 'deliveries',
          pruneBatch: (size) =>
            deliveries.pruneFinished(new Date(Date.now() - config.DELIVERY_RETENTION_MS), size),
        },
        {
          name: 'deleted responses',
          pruneBatch: (size) =>
            deliveries.pruneDeletedResponses(new Date(Date.now() - config.RESPONSES_STREAM_MAX_AGE_MS), size),
        },
      ],
      retentionSettingsOf(config),
      new Logger('DeliveryRetentionJob'),
    );
  }

  onApplicationBootstrap(): void {
    this.pruner.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.pruner.stop();
  }
}
