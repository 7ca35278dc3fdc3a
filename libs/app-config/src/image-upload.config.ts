import { imageStorageVars } from '@formline/object-storage';
import { z } from 'zod';

const positive = (fallback: number, description: string) =>
  z.coerce.number().int().positive().default(fallback).describe(description);

// The gateway's Images API: where the bytes go and how large an upload may be.
export const imageVars = {
  ...imageStorageVars,
  IMAGE_MAX_BYTES: positive(
    4 * 1024 * 1024,
    'Largest image accepted by POST /images, in bytes (after base64).',
  ),
  IMAGE_MAX_PIXELS: positive(
    25_000_000,
    'Most pixels (width × height) an uploaded image may have: a small file that decodes huge (a decompression bomb) is refused before it is decoded.',
  ),
  IMAGE_FETCH_TIMEOUT_MS: positive(
    10_000,
    'Longest wait for an image fetched by `url` (POST /images), start to end.',
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
