import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { connectNats, RpcClient } from '@formline/messaging';
import type { NatsConnection } from '@nats-io/transport-node';
import { AccessTokenGuard } from './auth/access-token.guard';
import { HttpErrorFilter } from './errors/http-error.filter';
import { MeController } from './account/me.controller';
import { FormsController } from './forms/forms.controller';
import { WorkspacesController } from './workspaces/workspaces.controller';
import { GATEWAY_CONFIG, type GatewayConfig } from './gateway.config';

const NATS_CONNECTION = Symbol('NATS_CONNECTION');

// The only HTTP entry of a region. It owns no tables: it authenticates,
// validates and asks the services over NATS.
@Module({})
export class GatewayModule implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nats: NatsConnection) {}

  static forConfig(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [FormsController, WorkspacesController, MeController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: NATS_CONNECTION, useFactory: () => connectNats(config, `gateway-${config.REGION}`) },
        {
          provide: RpcClient,
          inject: [NATS_CONNECTION],
          useFactory: (nats: NatsConnection) => new RpcClient(nats, config.NATS_REQUEST_TIMEOUT_MS),
        },
        { provide: APP_GUARD, useClass: AccessTokenGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    };
  }

  // Drain lets in-flight requests get their replies before the connection closes.
  async onApplicationShutdown(): Promise<void> {
    if (!this.nats.isClosed()) await this.nats.drain();
  }
}
