import { deleteRespondentFiles, respondentFilesPerDelete } from '@formline/contracts';
import type { RpcClient } from '@formline/messaging';
import { currentRequestId } from '@formline/ops';
import type { StoredUpload } from './upload.repository';

// The bytes of respondents' uploads are in the region's file store, which the
// media app alone opens. The responses service deletes the upload rows
// (pruned, purged with their form, deleted with their response or by a
// right-to-be-forgotten job) and, first, in the same batch, asks the media
// app to delete their bytes: a failure (the media app away or slow) fails the
// batch, whose rows stay to be tried again; bytes already gone are no error.
export function uploadBytesRemover(rpc: RpcClient): (uploads: readonly StoredUpload[]) => Promise<void> {
  return async (uploads) => {
    for (let start = 0; start < uploads.length; start += respondentFilesPerDelete) {
      const files = uploads
        .slice(start, start + respondentFilesPerDelete)
        .map(({ formId, fieldId, fileName }) => ({ formId, fieldId, fileName }));
      await rpc.request(deleteRespondentFiles, { files }, currentRequestId());
    }
  };
}
