import { imageStorageVars } from '@formline/object-storage';
import { z } from 'zod';

const positive = (fallback: number, description: string) =>
  z.coerce.number().int().positive().default(fallback).describe(description);

// How large an image upload may be: the gateway bounds the body it forwards
// by it, the media app checks the decoded bytes.
export const imageSizeVars = {
  IMAGE_MAX_BYTES: positive(
    4 * 1024 * 1024,
    'Largest image accepted by POST /images, in bytes (after base64).',
  ),
};

// The media app's images: where the bytes go, how large an upload may be,
// and how much image work one media process does at once.
export const imageVars = {
  ...imageStorageVars,
  ...imageSizeVars,
  IMAGE_MAX_PIXELS: positive(
    25_000_000,
    'Most pixels (width × height) an uploaded image may have: a small file that decodes huge (a decompression bomb) is refused before it is decoded.',
  ),
  IMAGE_FETCH_TIMEOUT_MS: positive(
    10_000,
    'Longest wait for an image fetched by `url` (POST /images), start to end: the look-up of its host included.',
  ),
  IMAGE_RENDER_CONCURRENCY: positive(
    1,
    "Image jobs (an upload's decoding, a variant's resize) one media process runs at once. They run in libuv's thread pool (UV_THREADPOOL_SIZE, 4 by default), which file reads and DNS look-ups share: keep it below that size. Each keeps a core busy for a second or more (a 25-megapixel image takes about 100 MB while it is worked on): keep it below the cores the process may use.",
  ),
  IMAGE_RENDER_QUEUE: positive(
    32,
    'Image jobs one media process keeps waiting for a turn; past it, uploads and first reads of a size are answered 503 with Retry-After (load shedding refuses them before any work while it is full).',
  ),
  IMAGE_URL_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .describe(
      'Comma-separated hosts, addresses or CIDR ranges that POST /images may fetch `url` from although internal (tests, a local demo); empty by default.',
    ),
};
