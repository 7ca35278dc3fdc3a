import 'reflect-metadata';
import { loadConfig } from '@formline/config';
import { QueueGroups } from '@formline/contracts';
import { GlobalPrismaClient } from '@formline/db';
import { runNatsService } from '@formline/messaging';
import { runMain } from '@formline/ops';
import { formsConfigSchema } from '@formline/app-config';
import { FormsModule } from './forms.module';

runMain(async () => {
  const config = loadConfig(formsConfigSchema);
  await runNatsService({
    service: 'forms',
    queue: QueueGroups.forms,
    config,
    module: FormsModule.forConfig(config),
    dependencies: (app) => [
      { name: 'database', probe: () => app.get(GlobalPrismaClient).$queryRaw`SELECT 1` },
    ],
  });
});
