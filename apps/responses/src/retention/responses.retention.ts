import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { RetentionPruner } from '@formline/db';
import { fileKey, type ObjectStore } from '@formline/object-storage';
import { OutboxRepository } from '../outbox/outbox.repository';
import { RESPONSES_CONFIG, type ResponsesConfig } from '../responses.config';
import { UploadRepository } from '../uploads/upload.repository';
import { UPLOAD_STORE } from '../uploads/upload.store';

// The responses service's retention job, in small batches, one replica at a time:
// - published outbox rows after OUTBOX_RETENTION_MS (rows set aside are kept
//   for an operator);
// - uploads no response holds (never submitted, replaced by another file, or
//   their response deleted) after FILE_UPLOAD_RETENTION_MS since the upload,
//   their bytes first.
@Injectable()
export class ResponsesRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly pruner: RetentionPruner;

  constructor(
    outbox: OutboxRepository,
    uploads: UploadRepository,
    @Inject(UPLOAD_STORE) files: ObjectStore,
    @Inject(RESPONSES_CONFIG) config: ResponsesConfig,
  ) {
    const before = (ms: number) => new Date(Date.now() - ms);
    this.pruner = new RetentionPruner(
      [
        {
          name: 'outbox_events',
          pruneBatch: (size) => outbox.prunePublished(before(config.OUTBOX_RETENTION_MS), size),
        },
        {
          name: 'uploads',
          pruneBatch: (size) =>
            uploads.pruneUnattached(before(config.FILE_UPLOAD_RETENTION_MS), size, (rows) =>
              files.delete(rows.map((row) => fileKey(config.REGION, row.formId, row.fieldId, row.fileName))),
            ),
        },
      ],
      { intervalMs: config.RETENTION_INTERVAL_MS, batchSize: config.RETENTION_BATCH_SIZE, pauseMs: 50 },
      new Logger('ResponsesRetention'),
    );
  }

  onApplicationBootstrap(): void {
    this.pruner.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.pruner.stop();
  }
}
