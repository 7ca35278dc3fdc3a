import { z } from 'zod';

// The gateway and the media app: the gateway refuses a larger declared size
// before reading the body, the media app stores and decodes no more.

// The largest file one upload may carry (Typeform's limit is 10 MB).
export const fileSizeVars = {
  FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024)
    .describe('Largest file a respondent may upload to a `file_upload` question, in bytes.'),
};

// How large an image upload may be: the gateway bounds the body it forwards
// by it, the media app checks the decoded bytes.
export const imageSizeVars = {
  IMAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024)
    .describe('Largest image accepted by POST /images, in bytes (after base64).'),
};
