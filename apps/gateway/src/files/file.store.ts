// The region's file store (FILE_STORAGE): respondents' uploads, keyed by
// libs/object-storage's fileKey. The responses service prunes the ones no
// response holds.
export const FILE_STORE = Symbol('FILE_STORE');
