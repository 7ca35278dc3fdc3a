export * from './secret-box';
export * from './signatures';
export * from './send-outcome';
export * from './delivery.queue';
export * from './delivery.repository';
export * from './delivery-log.rows';
