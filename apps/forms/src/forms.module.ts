import { Module, type OnApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { createGlobalDatabase, GlobalPrismaClient } from '@formline/db';
import { connectNats } from '@formline/messaging';
import { ChangeAnnouncer } from './change-announcer';
import { AccountCredentialsController } from './accounts/account-credentials.controller';
import { AccountCredentialsService } from './accounts/account-credentials.service';
import { AccountProfileController } from './accounts/account-profile.controller';
import { FormController } from './form.controller';
import { FormMessagesController } from './form-messages.controller';
import { FormRepository } from './form.repository';
import { FormService } from './form.service';
import { FormPageController } from './respondent-page/form-page.controller';
import { FormImagesCheck } from './images/form-images.check';
import { ImageController } from './images/image.controller';
import { ImageRepository } from './images/image.repository';
import { ImageService } from './images/image.service';
import { ThemeController } from './themes/theme.controller';
import { ThemeRepository } from './themes/theme.repository';
import { ThemeService } from './themes/theme.service';
import { WorkspaceController } from './workspace.controller';
import { WorkspaceRepository } from './workspace.repository';
import { WorkspaceService } from './workspace.service';
import { FORMS_CONFIG, type FormsConfig } from './forms.config';
import { OAuthApplicationController } from './oauth/oauth-application.controller';
import { OAuthApplicationRepository } from './oauth/oauth-application.repository';
import { OAuthAuthorizationController } from './oauth/oauth-authorization.controller';
import { OAuthGrantController } from './oauth/oauth-grant.controller';
import { OAuthGrantRepository } from './oauth/oauth-grant.repository';
import { OAuthTokenController } from './oauth/oauth-token.controller';
import { OAuthTokenService } from './oauth/oauth-token.service';
import { AccessTokenController } from './tokens/access-token.controller';
import { AccessTokenRepository } from './tokens/access-token.repository';
import { PersonalTokenController } from './tokens/personal-token.controller';
import { PersonalTokenRepository } from './tokens/personal-token.repository';

// The forms service owns the global database: accounts, their tokens and
// OAuth grants, workspaces and forms. Both regions' forms services share it
// (SPEC 1, rule 1), which is why a token works on both base addresses.
@Module({})
export class FormsModule implements OnApplicationShutdown {
  constructor(
    private readonly db: GlobalPrismaClient,
    private readonly announcer: ChangeAnnouncer,
  ) {}

  static forConfig(config: FormsConfig): DynamicModule {
    return {
      module: FormsModule,
      controllers: [
        AccessTokenController,
        AccountCredentialsController,
        PersonalTokenController,
        OAuthApplicationController,
        OAuthAuthorizationController,
        OAuthTokenController,
        OAuthGrantController,
        AccountProfileController,
        FormController,
        FormMessagesController,
        WorkspaceController,
        ThemeController,
        ImageController,
        FormPageController,
      ],
      providers: [
        { provide: FORMS_CONFIG, useValue: config },
        {
          provide: GlobalPrismaClient,
          useFactory: () =>
            createGlobalDatabase(config.GLOBAL_DATABASE_URL, {
              size: config.DATABASE_POOL_SIZE,
              acquireTimeoutMs: config.DATABASE_POOL_TIMEOUT_MS,
            }),
        },
        {
          provide: ChangeAnnouncer,
          useFactory: async () =>
            new ChangeAnnouncer(await connectNats(config, `forms-${config.REGION}-announcements`)),
        },
        AccessTokenRepository,
        AccountCredentialsService,
        PersonalTokenRepository,
        OAuthApplicationRepository,
        OAuthGrantRepository,
        OAuthTokenService,
        FormRepository,
        FormService,
        WorkspaceRepository,
        WorkspaceService,
        ThemeRepository,
        ThemeService,
        ImageRepository,
        ImageService,
        FormImagesCheck,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.db.$disconnect(), this.announcer.close()]);
  }
}
