import { logVars, mediaForwardingVars, natsVars, opsVars, regionVars, shutdownVars } from '@formline/config';
import { z } from 'zod';
import { fileVars } from './file-upload.config';
import { imageVars } from './image-upload.config';

// The media app: images (their store, the render pool, the fetch by url) and
// respondents' files (the region's file store, which it alone opens). It
// serves HTTP inside the region only, to the gateway, which has already let
// each request in, and deletes files asked for over NATS.
export const mediaConfigSchema = z.object({
  ...regionVars,
  ...natsVars,
  ...opsVars,
  ...logVars,
  ...shutdownVars,
  HTTP_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe("Address the media app's HTTP server listens on (reached by the gateway only)."),
  HTTP_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .describe("Port of the media app's HTTP server (the gateway's MEDIA_URL names it)."),
  ...imageVars,
  ...fileVars,
  ...mediaForwardingVars,
  MEDIA_NICE: z.coerce
    .number()
    .int()
    .min(0)
    .max(19)
    .default(10)
    .describe(
      "CPU priority the media app's threads run at (Linux nice, 0 to 19; 0 leaves it as started): image work gives way to the API's processes on the same host. A container with a CPU limit of its own is bounded by that limit as well.",
    ),
});

export type MediaConfig = z.infer<typeof mediaConfigSchema>;
