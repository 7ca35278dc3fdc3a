import type { INestApplication, INestMicroservice } from '@nestjs/common';
import { QueueGroups } from '@formline/contracts';
import { connectNatsMicroservice } from '@formline/messaging';
import type { MediaConfig } from '@formline/app-config';

// The media app's NATS side, beside its HTTP routes: the deletes of
// respondents' files the responses service asks for, in media's queue group,
// under the error filter and interceptors every service's handlers have
// (connectNatsMicroservice). Started by the app's startAllMicroservices().
export function connectMediaHandlers(app: INestApplication, config: MediaConfig): INestMicroservice {
  return connectNatsMicroservice(app, {
    name: `media-${config.REGION}-handlers`,
    queue: QueueGroups.media,
    nats: config,
  });
}
