export * from './input-limits';
export * from './prototype-keys';
export * from './caller-text';
export * from './caller-json';
export * from './json-depth';
export * from './page-bytes';
export * from './bounded-runs';
