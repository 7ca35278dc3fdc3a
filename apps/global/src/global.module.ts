import { Inject, Module, type OnApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { createGlobalDatabase, databasePoolOf, GlobalPrismaClient } from '@formline/db';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, NATS_CONNECTION } from '@formline/messaging';
import { ChangeAnnouncer } from './change-announcer';
import { FormDeletionRelayJob } from './form-deletion/form-deletion-relay.job';
import { FormDeletionRepository } from './form-deletion/form-deletion.repository';
import { AccountCredentialsHandler } from './accounts/account-credentials.handler';
import { AccountCredentialsService } from './accounts/account-credentials.service';
import { PasswordCheckLimiter } from './accounts/password-check.limiter';
import { AccountRepository } from './accounts/account.repository';
import { AccountProfileHandler } from './accounts/account-profile.handler';
import { FormAccess } from './form-access';
import { FormHandler } from './form.handler';
import { FormMessagesHandler } from './form-messages.handler';
import { FormRepository } from './form.repository';
import { FormService } from './form.service';
import { FormPageHandler } from './respondent-page/form-page.handler';
import { FormImagesCheck } from './images/form-images.check';
import { ImageHandler } from './images/image.handler';
import { ImageRepository } from './images/image.repository';
import { ImageService } from './images/image.service';
import { ThemeHandler } from './themes/theme.handler';
import { ThemeRepository } from './themes/theme.repository';
import { ThemeService } from './themes/theme.service';
import { WorkspaceHandler } from './workspace.handler';
import { WorkspaceRepository } from './workspace.repository';
import { WorkspaceService } from './workspace.service';
import { GLOBAL_CONFIG, type GlobalConfig } from '@formline/app-config';
import { OAuthApplicationHandler } from './oauth/oauth-application.handler';
import { OAuthApplicationRepository } from './oauth/oauth-application.repository';
import { OAuthAuthorizationHandler } from './oauth/oauth-authorization.handler';
import { OAuthGrantHandler } from './oauth/oauth-grant.handler';
import { OAuthGrantRepository } from './oauth/oauth-grant.repository';
import { OAuthTokenHandler } from './oauth/oauth-token.handler';
import { OAuthTokenService } from './oauth/oauth-token.service';
import { AccessTokenHandler } from './tokens/access-token.handler';
import { AccessTokenRepository } from './tokens/access-token.repository';
import { PersonalTokenHandler } from './tokens/personal-token.handler';
import { PersonalTokenRepository } from './tokens/personal-token.repository';

// The global service owns the global database: accounts, their tokens and
// OAuth grants, workspaces and forms. Both regions' global services share it
// (accounts, workspaces and forms answer the same on either base address),
// which is why a token works on both base addresses.
@Module({})
export class GlobalModule implements OnApplicationShutdown {
  constructor(
    private readonly db: GlobalPrismaClient,
    private readonly announcer: ChangeAnnouncer,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
  ) {}

  static forConfig(config: GlobalConfig): DynamicModule {
    return {
      module: GlobalModule,
      // The NATS handlers (Nest registers every class of handlers as a controller).
      controllers: [
        AccessTokenHandler,
        AccountCredentialsHandler,
        PersonalTokenHandler,
        OAuthApplicationHandler,
        OAuthAuthorizationHandler,
        OAuthTokenHandler,
        OAuthGrantHandler,
        AccountProfileHandler,
        FormHandler,
        FormMessagesHandler,
        WorkspaceHandler,
        ThemeHandler,
        ImageHandler,
        FormPageHandler,
      ],
      providers: [
        { provide: GLOBAL_CONFIG, useValue: config },
        {
          provide: GlobalPrismaClient,
          useFactory: () => createGlobalDatabase(config.GLOBAL_DATABASE_URL, databasePoolOf(config)),
        },
        {
          provide: ChangeAnnouncer,
          useFactory: async () =>
            new ChangeAnnouncer(await connectNats(config, `forms-${config.REGION}-announcements`)),
        },
        // Its own connection for JetStream (the form deletion relay).
        {
          provide: NATS_CONNECTION,
          useFactory: () => connectNats(config, `forms-${config.REGION}-client`),
        },
        FormDeletionRepository,
        FormDeletionRelayJob,
        AccessTokenRepository,
        AccountRepository,
        AccountCredentialsService,
        PasswordCheckLimiter,
        PersonalTokenRepository,
        OAuthApplicationRepository,
        OAuthGrantRepository,
        OAuthTokenService,
        FormRepository,
        FormAccess,
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
    if (!this.nats.isClosed()) await this.nats.drain();
    await Promise.all([this.db.$disconnect(), this.announcer.close()]);
  }
}
