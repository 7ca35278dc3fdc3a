import { fileStorageVars } from '@formline/object-storage';
import { z } from 'zod';

const count = (fallback: number, description: string) =>
  z.coerce.number().int().min(0).default(fallback).describe(description);

// The largest file one upload may carry (Typeform's limit is 10 MB): the
// gateway refuses a larger declared size before reading the body, the media
// app stores no more.
export const fileSizeVars = {
  FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024)
    .describe('Largest file a respondent may upload to a `file_upload` question, in bytes.'),
};

// The media app's respondents' files (`file_upload` questions): this region's
// store, which it alone opens, and the largest file.
export const fileVars = {
  ...fileStorageVars,
  ...fileSizeVars,
};

// The gateway's budgets of uploads a window (docs/security.md, "Storage
// budgets"): an upload is kept a day before anyone claims it, so what one
// client or one form may send must be bounded in bytes and in files, not only
// in requests.
export const uploadBudgetVars = {
  UPLOAD_BUDGET_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(3_600_000)
    .describe('Length of the window of the upload budgets below (whole seconds: rounded up).'),
  UPLOAD_BYTES_PER_ADDRESS: count(
    100 * 1024 * 1024,
    'Bytes of files one client address may upload without a token per window (all forms together); 0 turns it off.',
  ),
  UPLOAD_FILES_PER_ADDRESS: count(
    50,
    'Files one client address may upload without a token per window (all forms together); 0 turns it off.',
  ),
  UPLOAD_BYTES_PER_FORM: count(
    2 * 1024 * 1024 * 1024,
    'Bytes of files one form may take from uploads without a token per window (all addresses together); 0 turns it off.',
  ),
  UPLOAD_FILES_PER_FORM: count(
    2000,
    'Files one form may take from uploads without a token per window (all addresses together); 0 turns it off.',
  ),
  UPLOAD_BYTES_PER_ACCOUNT: count(
    2 * 1024 * 1024 * 1024,
    'Bytes of files the tokens of one account may upload per window (whatever the form); 0 turns it off.',
  ),
  UPLOAD_FILES_PER_ACCOUNT: count(
    2000,
    'Files the tokens of one account may upload per window (whatever the form); 0 turns it off.',
  ),
};
