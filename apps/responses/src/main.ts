import 'reflect-metadata';
import { loadConfig } from '@formline/config';
import { QueueGroups } from '@formline/contracts';
import { ResponsesPrismaClient } from '@formline/db';
import { runNatsService } from '@formline/messaging';
import { exposePipelineMetrics, runMain } from '@formline/ops';
import { responsesConfigSchema } from '@formline/app-config';
import { ResponsesModule } from './responses.module';

runMain(async () => {
  const config = loadConfig(responsesConfigSchema);
  // Fed by the outbox relay.
  exposePipelineMetrics('outbox');
  await runNatsService({
    service: 'responses',
    queue: QueueGroups.responses,
    config,
    module: ResponsesModule.forConfig(config),
    dependencies: (app) => [
      { name: 'database', probe: () => app.get(ResponsesPrismaClient).$queryRaw`SELECT 1` },
    ],
  });
});
