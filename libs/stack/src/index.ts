export * from './region-stack.settings';
export * from './app-process';
export * from './region-stack';
export * from './app-supervisor';
