export * from './access-token';
export * from './bearer-token';
export * from './password-hash';
export * from './pkce';
