import type { StoredFile } from '@formline/contracts';
import { fileKey } from '@formline/object-storage';

// The region's file store (FILE_STORAGE): respondents' uploads. The media app
// alone opens it: the gateway reaches the bytes through this app's routes,
// the responses service deletes them through its RPC.
export const FILE_STORE = Symbol('FILE_STORE');

export const storedFileKey = (region: string, file: StoredFile) =>
  fileKey(region, file.formId, file.fieldId, file.fileName);
