import {
  httpVars,
  loadSheddingVars,
  logVars,
  mediaForwardingVars,
  natsVars,
  opsVars,
  rateLimitVars,
  readCacheVars,
  redisVars,
  regionVars,
  requestTimeVars,
  shutdownVars,
} from '@formline/config';
import { z } from 'zod';
import { fileSizeVars, uploadBudgetVars } from './file-upload.config';
import { imageSizeVars } from './image-upload.config';

export const gatewayConfigSchema = z.object({
  ...regionVars,
  ...natsVars,
  ...redisVars,
  ...rateLimitVars,
  ...opsVars,
  ...logVars,
  ...shutdownVars,
  ...httpVars,
  ...loadSheddingVars,
  ...requestTimeVars,
  ...readCacheVars,
  ...imageSizeVars,
  MEDIA_URL: z
    .url()
    .describe(
      "Address of this region's media app, to which the gateway forwards the image routes and streams respondents' files once it has let a request in (http, inside the region).",
    ),
  ...fileSizeVars,
  ...uploadBudgetVars,
  ...mediaForwardingVars,
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
