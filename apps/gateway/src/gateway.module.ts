import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { connectNats, connectRedisFailFast, NATS_CONNECTION, RpcClient } from '@formline/messaging';
import type { NatsConnection } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import {
  AccessGuard,
  HTTP_EDGE_CONFIG,
  ReadCache,
  RouteAccessAudit,
  HttpErrorFilter,
  RateLimiter,
  SignInThrottle,
  SubmissionThrottle,
  UploadThrottle,
  FailedAuthenticationThrottle,
} from '@formline/http-edge';
import { MeController } from './me/me.controller';
import { InsightsController } from './insights/insights.controller';
import { RtbfController } from './rtbf/rtbf.controller';
import { FormsController } from './forms/forms.controller';
import { PartialSubmissionsController } from './responses/partial-submissions.controller';
import { ImagesController } from './images/images.controller';
import { RespondentFilesController } from './files/respondent-files.controller';
import { ResponseExportController } from './response-export/response-export.controller';
import { MediaAppClient } from './media-app/media-app.client';
import { FormMessagesController } from './forms/form-messages.controller';
import { AccountWorkspacesController } from './workspaces/account-workspaces.controller';
import { ResponsesController } from './responses/responses.controller';
import { RespondentPageController } from './respondent-page/respondent-page.controller';
import { ConsoleController } from './console/console.controller';
import { ThemesController } from './themes/themes.controller';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WorkspacesController } from './workspaces/workspaces.controller';
import { GATEWAY_CONFIG, type GatewayConfig } from '@formline/app-config';
import { OAuthApplicationsController } from './oauth/oauth-applications.controller';
import { OAuthAuthorizeController } from './oauth/oauth-authorize.controller';
import { OAuthGrantsController } from './oauth/oauth-grants.controller';
import { OAuthTokenController } from './oauth/oauth-token.controller';
import { SubmissionTargets } from './responses/submission-target';
import { SubmissionSender } from './responses/submission.sender';
import { PersonalTokensController } from './tokens/personal-tokens.controller';

// The only HTTP entry of a region. It owns no tables: it authenticates,
// validates and asks the services over NATS. Its one piece of state, the
// rate-limit counters, lives in the region's Redis, shared by its replicas.
@Module({})
export class GatewayModule implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nats: NatsConnection) {}

  static forConfig(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [DiscoveryModule],
      controllers: [
        FormsController,
        FormMessagesController,
        WorkspacesController,
        AccountWorkspacesController,
        MeController,
        ResponsesController,
        PartialSubmissionsController,
        WebhooksController,
        ThemesController,
        ImagesController,
        RespondentFilesController,
        ResponseExportController,
        RespondentPageController,
        ConsoleController,
        PersonalTokensController,
        OAuthApplicationsController,
        OAuthAuthorizeController,
        OAuthTokenController,
        OAuthGrantsController,
        InsightsController,
        RtbfController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: HTTP_EDGE_CONFIG, useValue: config },
        MediaAppClient,
        { provide: NATS_CONNECTION, useFactory: () => connectNats(config, `gateway-${config.REGION}`) },
        {
          provide: RpcClient,
          inject: [NATS_CONNECTION],
          useFactory: (nats: NatsConnection) => new RpcClient(nats, config.NATS_REQUEST_TIMEOUT_MS),
        },
        {
          provide: Redis,
          useFactory: () => connectRedisFailFast(config, `gateway-${config.REGION}`),
        },
        {
          provide: ReadCache,
          inject: [NATS_CONNECTION],
          useFactory: (nats: NatsConnection) => new ReadCache(nats, config),
        },
        RateLimiter,
        SignInThrottle,
        FailedAuthenticationThrottle,
        SubmissionThrottle,
        UploadThrottle,
        SubmissionTargets,
        SubmissionSender,
        RouteAccessAudit,
        AccessGuard,
        { provide: APP_GUARD, useExisting: AccessGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    };
  }

  // Drain lets in-flight requests get their replies before the connection closes.
  async onApplicationShutdown(): Promise<void> {
    if (!this.nats.isClosed()) await this.nats.drain();
  }
}
