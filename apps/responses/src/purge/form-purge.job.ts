import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { FormPurgeRunner, formPurgeSettingsOf, type FormPurgeStep } from '@formline/db';
import { RpcClient } from '@formline/messaging';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { uploadBytesRemover } from '../uploads/upload-bytes.remover';
import { FormPurgeRepository, type PurgedUpload } from './form-purge.repository';
import { formOtherTables } from './form-tables';

// How long a worker holds a purge without a batch: a dead one's is taken over after this.
const leaseMs = 60_000;

// Purges deleted forms from the region's responses database and, through the
// media app, its file store: their uploads (bytes first), outbox events,
// responses, and the form's other tables (formOtherTables), a bounded batch
// at a time (libs/db's FormPurgeRunner).
@Injectable()
export class FormPurgeJob implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly runner: FormPurgeRunner;

  constructor(
    purges: FormPurgeRepository,
    rpc: RpcClient,
    @Inject(RESPONSES_CONFIG) config: ResponsesConfig,
  ) {
    this.runner = new FormPurgeRunner(
      purges.table,
      formPurgeSteps(purges, uploadBytesRemover(rpc)),
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

// In this order: uploads before the responses that hold them (their rows
// name the bytes), the responses last but for the form's other tables.
export function formPurgeSteps(
  purges: FormPurgeRepository,
  removeBytes: (uploads: PurgedUpload[]) => Promise<void>,
): FormPurgeStep[] {
  return [
    {
      name: 'uploads',
      purgeBatch: (formId, size) => purges.purgeUploads(formId, size, removeBytes),
    },
    { name: 'outbox_events', purgeBatch: (formId, size) => purges.purgeOutboxEvents(formId, size) },
    { name: 'responses', purgeBatch: (formId, size) => purges.purgeResponses(formId, size) },
    ...formOtherTables().map((table) => ({
      name: table,
      purgeBatch: (formId: string, size: number) => purges.purgeOtherTable(table, formId, size),
    })),
  ];
}
