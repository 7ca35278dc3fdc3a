import { databaseUrl, logVars, opsVars, redisVars, regionVars, shutdownVars } from '@formline/config';
import { z } from 'zod';

export const dispatcherConfigSchema = z.object({
  ...regionVars,
  ...redisVars,
  ...opsVars,
  ...logVars,
  ...shutdownVars,
  WEBHOOKS_DATABASE_URL: databaseUrl(
    "This region's webhooks database, where every delivery attempt is recorded.",
  ),
});

export type DispatcherConfig = z.infer<typeof dispatcherConfigSchema>;
