export * from './region';
export * from './rpc-contract';
export * from './subjects';
export * from './scopes';
export * from './accounts.contract';
export * from './personal-tokens.contract';
export * from './oauth.contract';
export * from './forms.contract';
