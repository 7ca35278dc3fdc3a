export * from './region';
export * from './rpc-contract';
export * from './subjects';
export * from './accounts.contract';
export * from './forms.contract';
