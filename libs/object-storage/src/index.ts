export * from './object-store';
export * from './local-disk.store';
export * from './s3.store';
export * from './object-store.factory';
export * from './respondent-file';
