export * from './access-token';
export * from './password-hash';
export * from './pkce';
