import { fileStorageVars } from '@formline/object-storage';
import { z } from 'zod';

// Respondents' files (`file_upload` questions): this region's store and the
// largest file one upload may carry (Typeform's limit is 10 MB).
export const fileVars = {
  ...fileStorageVars,
  FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024)
    .describe('Largest file a respondent may upload to a `file_upload` question, in bytes.'),
};
