import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { FormPurgeRunner, type FormPurgeStep } from '@formline/db';
import { fileKey, type ObjectStore } from '@formline/object-storage';
import { RESPONSES_CONFIG, type ResponsesConfig } from '../responses.config';
import { UPLOAD_STORE } from '../uploads/upload.store';
import { FormPurgeRepository } from './form-purge.repository';
import { formOtherTables } from './form-tables';

// How long a worker holds a purge without a batch: a dead one's is taken over after this.
const leaseMs = 60_000;

// Purges deleted forms from the region's responses database and file store:
// their uploads (bytes first), outbox events, responses, and the form's other
// tables (formOtherTables), a bounded batch at a time (libs/db's FormPurgeRunner).
@Injectable()
export class FormPurgeJob implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly runner: FormPurgeRunner;

  constructor(
    purges: FormPurgeRepository,
    @Inject(UPLOAD_STORE) files: ObjectStore,
    @Inject(RESPONSES_CONFIG) config: ResponsesConfig,
  ) {
    this.runner = new FormPurgeRunner(
      purges.table,
      formPurgeSteps(purges, files, config.REGION),
      {
        batchSize: config.FORM_PURGE_BATCH_SIZE,
        pauseMs: config.FORM_PURGE_PAUSE_MS,
        intervalMs: config.FORM_PURGE_INTERVAL_MS,
        settleMs: config.FORM_PURGE_SETTLE_MS,
        leaseMs,
      },
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
  files: ObjectStore,
  region: string,
): FormPurgeStep[] {
  return [
    {
      name: 'uploads',
      purgeBatch: (formId, size) =>
        purges.purgeUploads(formId, size, (rows) =>
          files.delete(rows.map((row) => fileKey(region, row.formId, row.fieldId, row.fileName))),
        ),
    },
    { name: 'outbox_events', purgeBatch: (formId, size) => purges.purgeOutboxEvents(formId, size) },
    { name: 'responses', purgeBatch: (formId, size) => purges.purgeResponses(formId, size) },
    ...formOtherTables().map((table) => ({
      name: table,
      purgeBatch: (formId: string, size: number) => purges.purgeOtherTable(table, formId, size),
    })),
  ];
}
