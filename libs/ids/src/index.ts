export * from './public-id';
