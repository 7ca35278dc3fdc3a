import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { forgetDeliveries } from '@formline/contracts';
import { LeasedJobRunner } from '@formline/db';
import { RpcClient } from '@formline/messaging';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { uploadBytesRemover } from '../uploads/upload-bytes.remover';
import { ErasureJobRepository, type LeasedErasureJob } from './erasure-job.repository';
import { ErasureRepository } from './erasure.repository';
import { RespondentErasureBatches } from './respondent-erasure.batches';

// A dead worker's job is taken over a minute after its last batch; a failed
// batch is tried again 30 s later, and 20 failures in a row (about ten
// minutes of the webhooks service or the media app away) end the job as
// failed, its addresses emptied: the caller asks again.
const leaseMs = 60_000;
const retryMs = 30_000;
const maxFailures = 20;
// How often a replica looks for jobs (one recorded here is started at once).
const intervalMs = 1000;
// A batch brings at most about 8 MB of stored responses into the process
// (a few times that once parsed), however large its responses are.
const batchBytes = 8 * 1024 * 1024;

// Works the region's right-to-be-forgotten jobs (erasure_jobs) in the
// background, one batch of ERASURE_BATCH_SIZE responses at a time with
// ERASURE_PAUSE_MS between batches (libs/db's LeasedJobRunner).
@Injectable()
export class RespondentErasureJob implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly runner: LeasedJobRunner<LeasedErasureJob>;

  constructor(
    jobs: ErasureJobRepository,
    erasure: ErasureRepository,
    rpc: RpcClient,
    @Inject(RESPONSES_CONFIG) config: ResponsesConfig,
  ) {
    const log = new Logger('RespondentErasureJob');
    const batches = new RespondentErasureBatches(
      {
        jobs,
        erasure,
        forgetDeliveries: async (accountId, responseTokens, jobId) => {
          await rpc.request(forgetDeliveries, { accountId, responseTokens }, jobId);
        },
        removeBytes: uploadBytesRemover(rpc),
        log,
      },
      { batchSize: config.ERASURE_BATCH_SIZE, batchBytes, leaseMs, retryMs, maxFailures },
    );
    this.runner = new LeasedJobRunner(batches, { pauseMs: config.ERASURE_PAUSE_MS, intervalMs }, log);
  }

  onApplicationBootstrap(): void {
    this.runner.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.runner.stop();
  }
}
