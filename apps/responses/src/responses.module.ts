import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { createResponsesDatabase, databasePoolOf, ResponsesPrismaClient } from '@formline/db';
import { QueueGroups, Streams } from '@formline/contracts';
import {
  BatchRpcResponder,
  ByteRpcResponder,
  connectNats,
  FormDeletionConsumer,
  NATS_CONNECTION,
  processInFlightBudget,
  RpcClient,
} from '@formline/messaging';
import { ErasureJobRepository } from './erasure/erasure-job.repository';
import { ErasureRepository } from './erasure/erasure.repository';
import { RespondentErasureJob } from './erasure/respondent-erasure.job';
import { RespondentErasureService } from './erasure/respondent-erasure.service';
import { InsightsRepository } from './insights/insights.repository';
import { InsightsService } from './insights/insights.service';
import { ResponseListingService } from './listing/response-listing.service';
import { OutboxRelayJob } from './outbox/outbox-relay.job';
import { OutboxRepository } from './outbox/outbox.repository';
import { FormPurgeJob } from './purge/form-purge.job';
import { FormPurgeRepository } from './purge/form-purge.repository';
import { ResponseHandler } from './response.handler';
import { ResponseExportHandler } from './export/response-export.handler';
import { ExportReadAhead } from './export/response-export.read-ahead';
import { ResponseExportRepository } from './export/response-export.repository';
import { ResponseExportService } from './export/response-export.service';
import { ResponseRepository } from './response.repository';
import { ResponseTallyRepository } from './tallies/response-tally.repository';
import { ResponsesRetentionJob } from './retention/responses-retention.job';
import { RESPONSES_CONFIG, type ResponsesConfig } from '@formline/app-config';
import { ProgressService } from './submission/progress.service';
import { FileAnswers } from './submission/file-answers';
import { ResponseWriter } from './submission/response.writer';
import { SubmissionBatchHandler } from './submission/submission-batch.handler';
import { SubmissionService } from './submission/submission.service';
import { UploadRepository } from './uploads/upload.repository';

// The responses service owns its region's responses database: submissions are
// stored, listed and emitted as events here, and only in the account's region.
@Module({})
export class ResponsesModule implements OnApplicationShutdown {
  constructor(
    private readonly db: ResponsesPrismaClient,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
  ) {}

  static forConfig(config: ResponsesConfig): DynamicModule {
    return {
      module: ResponsesModule,
      // The NATS handlers (Nest registers every class of handlers as a controller).
      controllers: [ResponseHandler],
      providers: [
        { provide: RESPONSES_CONFIG, useValue: config },
        {
          provide: ResponsesPrismaClient,
          useFactory: () => createResponsesDatabase(config.RESPONSES_DATABASE_URL, databasePoolOf(config)),
        },
        // Its own connection for calls to other services, for JetStream and for byte replies.
        {
          provide: NATS_CONNECTION,
          useFactory: () => connectNats(config, `responses-${config.REGION}-client`),
        },
        {
          provide: RpcClient,
          inject: [NATS_CONNECTION],
          useFactory: (nats: NatsConnection) => new RpcClient(nats, config.NATS_REQUEST_TIMEOUT_MS),
        },
        // Handlers whose replies are bytes (export pages), on the same connection.
        {
          provide: ByteRpcResponder,
          inject: [NATS_CONNECTION],
          useFactory: (nats: NatsConnection) =>
            new ByteRpcResponder(nats, {
              queue: QueueGroups.responses,
              budget: processInFlightBudget(config.NATS_MAX_IN_FLIGHT),
            }),
        },
        // Batches of submissions from the gateways, on the same connection.
        {
          provide: BatchRpcResponder,
          inject: [NATS_CONNECTION],
          useFactory: (nats: NatsConnection) =>
            new BatchRpcResponder(nats, {
              queue: QueueGroups.responses,
              budget: processInFlightBudget(config.NATS_MAX_IN_FLIGHT),
            }),
        },
        SubmissionBatchHandler,
        ResponseRepository,
        ResponseTallyRepository,
        OutboxRepository,
        OutboxRelayJob,
        ResponsesRetentionJob,
        UploadRepository,
        FileAnswers,
        ResponseWriter,
        SubmissionService,
        ProgressService,
        ResponseListingService,
        ResponseExportRepository,
        ExportReadAhead,
        ResponseExportService,
        ResponseExportHandler,
        InsightsRepository,
        InsightsService,
        ErasureRepository,
        ErasureJobRepository,
        RespondentErasureJob,
        RespondentErasureService,
        FormPurgeRepository,
        FormPurgeJob,
        // Form deletions of the region, recorded as purges (libs/messaging).
        {
          provide: FormDeletionConsumer,
          inject: [NATS_CONNECTION, FormPurgeRepository, FormPurgeJob],
          useFactory: (nats: NatsConnection, purges: FormPurgeRepository, job: FormPurgeJob) =>
            new FormDeletionConsumer(nats, Streams.forms.consumers.responses, purges.table, job.runner),
        },
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.nats.isClosed()) await this.nats.drain();
    await this.db.$disconnect();
  }
}
