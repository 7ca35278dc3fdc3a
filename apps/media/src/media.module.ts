import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { connectNats, NATS_CONNECTION, RpcClient } from '@formline/messaging';
import { objectStoreFrom } from '@formline/object-storage';
import { HttpErrorFilter } from '@formline/http-edge';
import type { NatsConnection } from '@nats-io/transport-node';
import { FILE_STORE } from './files/file.store';
import { RespondentFilesController } from './files/respondent-files.controller';
import { RespondentFilesHandler } from './files/respondent-files.handler';
import { ImagesController } from './images/images.controller';
import { IMAGE_STORE } from './images/image.store';
import { RenderPool } from './images/render.pool';
import { MEDIA_CONFIG, type MediaConfig } from '@formline/app-config';

// Images: the image store, the render pool that bounds sharp's work, the
// fetch of an image by url. Respondents' files: the region's file store,
// which no other app opens. It owns no tables (image records are the forms
// service's, upload records the responses service's, both asked over NATS),
// serves HTTP only to the gateway, and deletes files asked for over NATS.
@Module({})
export class MediaModule implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nats: NatsConnection) {}

  static forConfig(config: MediaConfig): DynamicModule {
    return {
      module: MediaModule,
      controllers: [ImagesController, RespondentFilesController, RespondentFilesHandler],
      providers: [
        { provide: MEDIA_CONFIG, useValue: config },
        { provide: IMAGE_STORE, useFactory: () => objectStoreFrom('IMAGE', config) },
        { provide: FILE_STORE, useFactory: () => objectStoreFrom('FILE', config) },
        {
          provide: RenderPool,
          useFactory: () =>
            new RenderPool({
              concurrency: config.IMAGE_RENDER_CONCURRENCY,
              maxQueued: config.IMAGE_RENDER_QUEUE,
            }),
        },
        { provide: NATS_CONNECTION, useFactory: () => connectNats(config, `media-${config.REGION}`) },
        {
          provide: RpcClient,
          inject: [NATS_CONNECTION],
          useFactory: (nats: NatsConnection) => new RpcClient(nats, config.NATS_REQUEST_TIMEOUT_MS),
        },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    };
  }

  // Drain lets in-flight requests get their replies before the connection closes.
  async onApplicationShutdown(): Promise<void> {
    if (!this.nats.isClosed()) await this.nats.drain();
  }
}
