import { fileKey, type ObjectStore } from '@formline/object-storage';
import type { StoredUpload } from './upload.repository';

// For the repository specs, in the place of the media app: deletes uploads'
// bytes from a store of the spec's own, under the keys the media app uses.
export function storeBytesRemover(
  files: ObjectStore,
  region: string,
): (uploads: readonly StoredUpload[]) => Promise<void> {
  return (uploads) =>
    files.delete(uploads.map((upload) => fileKey(region, upload.formId, upload.fieldId, upload.fileName)));
}
