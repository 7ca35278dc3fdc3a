import {
  databasePoolVars,
  databaseUrl,
  logVars,
  natsVars,
  opsVars,
  regionVars,
  shutdownVars,
} from '@formline/config';
import { z } from 'zod';

export const formsConfigSchema = z.object({
  ...regionVars,
  ...natsVars,
  ...opsVars,
  ...logVars,
  ...shutdownVars,
  ...databasePoolVars,
  GLOBAL_DATABASE_URL: databaseUrl(
    'The global database (accounts, workspaces, forms), shared by all regions.',
  ),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(604_800)
    .describe('Lifetime of an OAuth access token (Typeform: one week); refresh tokens renew it.'),
  OAUTH_REFRESH_TOKEN_IDLE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7_776_000)
    .describe(
      'A refresh token unused for this long (default 90 days) is refused; each refresh issues a new one, so an application in use never meets it.',
    ),
});

export type FormsConfig = z.infer<typeof formsConfigSchema>;
