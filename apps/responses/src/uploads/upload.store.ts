// The region's file store (FILE_STORAGE), the one the gateway writes uploads
// to: the responses service only deletes from it, pruning uploads no response holds.
export const UPLOAD_STORE = Symbol('UPLOAD_STORE');
