import { fileKey, type ObjectStore } from '@formline/object-storage';

// The region's file store (FILE_STORAGE), the one the gateway writes uploads
// to: the responses service only deletes from it, with the upload rows it
// deletes (pruned, purged with their form, or deleted with their response).
export const UPLOAD_STORE = Symbol('UPLOAD_STORE');

// Deletes the stored bytes of these uploads (those already gone are no error).
export function uploadBytesRemover(
  files: ObjectStore,
  region: string,
): (uploads: ReadonlyArray<{ fileName: string; formId: string; fieldId: string }>) => Promise<void> {
  return (uploads) =>
    files.delete(uploads.map((upload) => fileKey(region, upload.formId, upload.fieldId, upload.fileName)));
}
