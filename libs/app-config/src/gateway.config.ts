import {
  httpVars,
  loadSheddingVars,
  logVars,
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
import { fileVars } from './file-upload.config';
import { imageVars } from './image-upload.config';

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
  ...imageVars,
  ...fileVars,
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
