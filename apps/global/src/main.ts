import 'reflect-metadata';
import { loadConfig } from '@formline/config';
import { QueueGroups } from '@formline/contracts';
import { GlobalPrismaClient } from '@formline/db';
import { runNatsService } from '@formline/messaging';
import { runMain } from '@formline/ops';
import { globalConfigSchema } from '@formline/app-config';
import { GlobalModule } from './global.module';

runMain(async () => {
  const config = loadConfig(globalConfigSchema);
  await runNatsService({
    service: 'global',
    queue: QueueGroups.global,
    config,
    module: GlobalModule.forConfig(config),
    dependencies: (app) => [
      { name: 'database', probe: () => app.get(GlobalPrismaClient).$queryRaw`SELECT 1` },
    ],
  });
});
