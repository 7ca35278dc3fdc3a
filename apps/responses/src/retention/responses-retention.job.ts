import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { RetentionPruner, retentionSettingsOf } from '@formline/db';
import { RpcClient } from '@formline/messaging';
import { ErasureJobRepository } from '../erasure/erasure-job.repository';
import { OutboxRepository } from '../outbox/outbox.repository';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { UploadRepository } from '../uploads/upload.repository';
import { uploadBytesRemover } from '../uploads/upload-bytes.remover';

// The responses service's retention job, in small batches, one replica at a time:
// - published outbox rows after OUTBOX_RETENTION_MS (rows set aside are kept
//   for an operator);
// - uploads no response holds (never submitted, replaced by another file, or
//   their response deleted) after FILE_UPLOAD_RETENTION_MS since the upload,
//   their bytes first (deleted by the media app);
// - ended right-to-be-forgotten jobs (their state and counts; the addresses
//   went when they ended) after ERASURE_JOB_RETENTION_MS.
@Injectable()
export class ResponsesRetentionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly pruner: RetentionPruner;

  constructor(
    outbox: OutboxRepository,
    uploads: UploadRepository,
    erasureJobs: ErasureJobRepository,
    rpc: RpcClient,
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
            uploads.pruneUnattached(before(config.FILE_UPLOAD_RETENTION_MS), size, uploadBytesRemover(rpc)),
        },
        {
          name: 'erasure_jobs',
          pruneBatch: (size) => erasureJobs.prune(before(config.ERASURE_JOB_RETENTION_MS), size),
        },
      ],
      retentionSettingsOf(config),
      new Logger('ResponsesRetentionJob'),
    );
  }

  onApplicationBootstrap(): void {
    this.pruner.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.pruner.stop();
  }
}
