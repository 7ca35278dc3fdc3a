export * from './url-policy';
export * from './secret-box';
export * from './signatures';
