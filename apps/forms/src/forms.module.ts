import { Inject, Module, type OnApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { createGlobalDatabase, GlobalPrismaClient } from '@formline/db';
import { AccessTokenController } from './access-token.controller';
import { AccessTokenRepository } from './access-token.repository';
import { AccountProfileController } from './account-profile.controller';
import { FormController } from './form.controller';
import { FormRepository } from './form.repository';
import { FormService } from './form.service';
import { WorkspaceController } from './workspace.controller';
import { WorkspaceRepository } from './workspace.repository';
import { WorkspaceService } from './workspace.service';
import { FORMS_CONFIG, type FormsConfig } from './forms.config';

// The forms service owns the global database: accounts, their tokens,
// workspaces and forms. Both regions' forms services share it (SPEC 1, rule 1).
@Module({})
export class FormsModule implements OnApplicationShutdown {
  constructor(@Inject(GlobalPrismaClient) private readonly db: GlobalPrismaClient) {}

  static forConfig(config: FormsConfig): DynamicModule {
    return {
      module: FormsModule,
      controllers: [AccessTokenController, AccountProfileController, FormController, WorkspaceController],
      providers: [
        { provide: FORMS_CONFIG, useValue: config },
        { provide: GlobalPrismaClient, useFactory: () => createGlobalDatabase(config.GLOBAL_DATABASE_URL) },
        AccessTokenRepository,
        FormRepository,
        FormService,
        WorkspaceRepository,
        WorkspaceService,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.db.$disconnect();
  }
}
