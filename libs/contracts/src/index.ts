export * from './region';
export * from './rpc-contract';
export * from './subjects';
export * from './pagination';
export * from './accounts.contract';
export * from './account-profile.contract';
export * from './forms.contract';
export * from './workspaces.contract';
