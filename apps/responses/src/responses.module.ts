import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { createResponsesDatabase, ResponsesPrismaClient } from '@formline/db';
import { connectNats, RpcClient } from '@formline/messaging';
import { objectStoreFrom } from '@formline/object-storage';
import { ErasureRepository } from './erasure/erasure.repository';
import { RespondentErasureService } from './erasure/respondent-erasure.service';
import { InsightsRepository } from './insights/insights.repository';
import { InsightsService } from './insights/insights.service';
import { ResponseListingService } from './listing/response-listing.service';
import { OutboxRelay } from './outbox/outbox.relay';
import { OutboxStore } from './outbox/outbox.store';
import { ResponseController } from './response.controller';
import { ResponseRepository } from './response.repository';
import { ResponsesRetention } from './retention/responses.retention';
import { RESPONSES_CONFIG, type ResponsesConfig } from './responses.config';
import { RESPONSES_NATS } from './responses.tokens';
import { ProgressService } from './submission/progress.service';
import { FileAnswers } from './submission/file-answers';
import { ResponseWriter } from './submission/response.writer';
import { SubmissionService } from './submission/submission.service';
import { UPLOAD_STORE } from './uploads/upload.store';
import { UploadRepository } from './uploads/upload.repository';

// The responses service owns its region's responses database: submissions are
// stored, listed and emitted as events here, and only in the account's region.
@Module({})
export class ResponsesModule implements OnApplicationShutdown {
  constructor(
    @Inject(ResponsesPrismaClient) private readonly db: ResponsesPrismaClient,
    @Inject(RESPONSES_NATS) private readonly nats: NatsConnection,
  ) {}

  static forConfig(config: ResponsesConfig): DynamicModule {
    return {
      module: ResponsesModule,
      controllers: [ResponseController],
      providers: [
        { provide: RESPONSES_CONFIG, useValue: config },
        {
          provide: ResponsesPrismaClient,
          useFactory: () =>
            createResponsesDatabase(config.RESPONSES_DATABASE_URL, {
              size: config.DATABASE_POOL_SIZE,
              acquireTimeoutMs: config.DATABASE_POOL_TIMEOUT_MS,
            }),
        },
        // Its own connection for calls to other services and for JetStream.
        {
          provide: RESPONSES_NATS,
          useFactory: () => connectNats(config, `responses-${config.REGION}-client`),
        },
        {
          provide: RpcClient,
          inject: [RESPONSES_NATS],
          useFactory: (nats: NatsConnection) => new RpcClient(nats, config.NATS_REQUEST_TIMEOUT_MS),
        },
        ResponseRepository,
        OutboxStore,
        OutboxRelay,
        ResponsesRetention,
        { provide: UPLOAD_STORE, useFactory: () => objectStoreFrom('FILE', config) },
        UploadRepository,
        FileAnswers,
        ResponseWriter,
        SubmissionService,
        ProgressService,
        ResponseListingService,
        InsightsRepository,
        InsightsService,
        ErasureRepository,
        RespondentErasureService,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.nats.isClosed()) await this.nats.drain();
    await this.db.$disconnect();
  }
}
