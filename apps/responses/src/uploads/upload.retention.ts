import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { RetentionPruner } from '@formline/db';
import { fileKey, type ObjectStore } from '@formline/object-storage';
import { RESPONSES_CONFIG, type ResponsesConfig } from '../responses.config';
import { UploadRepository } from './upload.repository';
import { UPLOAD_STORE } from './upload.store';

// Deletes uploads no response holds (never submitted, replaced by another
// file, or their response deleted) once FILE_UPLOAD_RETENTION_MS has passed
// since the upload, bytes first, in small batches, one replica at a time.
@Injectable()
export class UploadRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly pruner: RetentionPruner;

  constructor(
    uploads: UploadRepository,
    @Inject(UPLOAD_STORE) store: ObjectStore,
    @Inject(RESPONSES_CONFIG) config: ResponsesConfig,
  ) {
    this.pruner = new RetentionPruner(
      [
        {
          name: 'uploads',
          pruneBatch: (size) =>
            uploads.pruneUnattached(new Date(Date.now() - config.FILE_UPLOAD_RETENTION_MS), size, (rows) =>
              store.delete(rows.map((row) => fileKey(config.REGION, row.formId, row.fieldId, row.fileName))),
            ),
        },
      ],
      { intervalMs: config.RETENTION_INTERVAL_MS, batchSize: config.RETENTION_BATCH_SIZE, pauseMs: 50 },
      new Logger('UploadRetention'),
    );
  }

  onApplicationBootstrap(): void {
    this.pruner.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.pruner.stop();
  }
}
