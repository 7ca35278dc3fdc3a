import { databaseUrl, logVars, natsVars, opsVars, regionVars, shutdownVars } from '@formline/config';
import { z } from 'zod';

export const responsesConfigSchema = z.object({
  ...regionVars,
  ...natsVars,
  ...opsVars,
  ...logVars,
  ...shutdownVars,
  RESPONSES_DATABASE_URL: databaseUrl("This region's responses database; never another region's."),
});

export type ResponsesConfig = z.infer<typeof responsesConfigSchema>;
