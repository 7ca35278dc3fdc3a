export * from './url.policy';
export * from './host.resolver';
export * from './socket.lookup';
export * from './checked-request';
