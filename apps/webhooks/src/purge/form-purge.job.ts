import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { FormPurgeRunner, formPurgeSettingsOf, type FormPurgeStep } from '@formline/db';
import { DeliveryQueue } from '@formline/webhook-delivery';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '@formline/app-config';
import { FormPurgeRepository } from './form-purge.repository';

// How long a worker holds a purge without a batch: a dead one's is taken over after this.
const leaseMs = 60_000;

// Purges deleted forms from the region's webhooks database and delivery
// queue: the deliveries of the form's webhooks with their attempts and their
// jobs in Redis, then the webhooks, a bounded batch at a time (libs/db's
// FormPurgeRunner).
@Injectable()
export class FormPurgeJob implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly runner: FormPurgeRunner;

  constructor(
    purges: FormPurgeRepository,
    queue: DeliveryQueue,
    @Inject(WEBHOOKS_CONFIG) config: WebhooksConfig,
  ) {
    this.runner = new FormPurgeRunner(
      purges.table,
      formPurgeSteps(purges, queue),
      formPurgeSettingsOf(config, leaseMs),
      new Logger('FormPurgeJob'),
    );
  }

  onApplicationBootstrap(): void {
    this.runner.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.runner.stop();
  }
}

export function formPurgeSteps(purges: FormPurgeRepository, queue: DeliveryQueue): FormPurgeStep[] {
  return [
    {
      name: 'deliveries',
      purgeBatch: (formId, size) =>
        purges.purgeDeliveries(formId, size, (deliveries) => queue.removeForDeliveries(deliveries)),
    },
    { name: 'webhooks', purgeBatch: (formId, size) => purges.purgeWebhooks(formId, size) },
  ];
}
