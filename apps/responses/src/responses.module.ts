import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createResponsesDatabase, ResponsesPrismaClient } from '@formline/db';
import type { ResponsesConfig } from './responses.config';

// The responses service owns its region's responses database: submissions are
// stored, listed and emitted as events here, and only in the account's region.
// Intake, listing and events arrive with the responses issue; this module
// connects the service to its database and NATS.
@Module({})
export class ResponsesModule implements OnApplicationShutdown {
  constructor(@Inject(ResponsesPrismaClient) private readonly db: ResponsesPrismaClient) {}

  static forConfig(config: ResponsesConfig): DynamicModule {
    return {
      module: ResponsesModule,
      providers: [
        {
          provide: ResponsesPrismaClient,
          useFactory: () => createResponsesDatabase(config.RESPONSES_DATABASE_URL),
        },
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.db.$disconnect();
  }
}
