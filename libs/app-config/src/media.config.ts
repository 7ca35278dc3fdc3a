import {
  commaList,
  fileSizeVars,
  fileStorageVars,
  httpServerVars,
  imageSizeVars,
  imageStorageVars,
  logVars,
  mediaForwardingVars,
  natsVars,
  opsVars,
  regionVars,
  shutdownVars,
} from '@formline/config';
import { z } from 'zod';

const positiveInt = (fallback: number, description: string) =>
  z.coerce.number().int().positive().default(fallback).describe(description);

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
  HTTP_HOST: httpServerVars.HTTP_HOST.describe(
    "Address the media app's HTTP server listens on (reached by the gateway only).",
  ),
  HTTP_PORT: httpServerVars.HTTP_PORT.describe(
    "Port of the media app's HTTP server (the gateway's MEDIA_URL names it).",
  ),
  // Images: where the bytes go, how large an upload may be, and how much image
  // work one media process does at once.
  ...imageStorageVars,
  ...imageSizeVars,
  IMAGE_MAX_PIXELS: positiveInt(
    25_000_000,
    'Most pixels (width × height) an uploaded image may have: a small file that decodes huge (a decompression bomb) is refused before it is decoded.',
  ),
  IMAGE_FETCH_TIMEOUT_MS: positiveInt(
    10_000,
    'Longest wait for an image fetched by `url` (POST /images), start to end: the look-up of its host included.',
  ),
  IMAGE_RENDER_CONCURRENCY: positiveInt(
    1,
    "Image jobs (an upload's decoding, a variant's resize) one media process runs at once. They run in libuv's thread pool (UV_THREADPOOL_SIZE, 4 by default), which file reads and DNS look-ups share: keep it below that size. Each keeps a core busy for a second or more (a 25-megapixel image takes about 100 MB while it is worked on): keep it below the cores the process may use.",
  ),
  IMAGE_RENDER_QUEUE: positiveInt(
    32,
    'Image jobs one media process keeps waiting for a turn; past it, uploads and first reads of a size are answered 503 with Retry-After (load shedding refuses them before any work while it is full).',
  ),
  IMAGE_URL_ALLOWED_HOSTS: commaList(
    'Comma-separated hosts, addresses or CIDR ranges that POST /images may fetch `url` from although internal (tests, a local demo); empty by default.',
  ),
  // Respondents' files (`file_upload` questions): this region's store, which
  // the media app alone opens, and the largest file.
  ...fileStorageVars,
  ...fileSizeVars,
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

// The token the media app injects its parsed config by.
export const MEDIA_CONFIG = Symbol('MEDIA_CONFIG');
