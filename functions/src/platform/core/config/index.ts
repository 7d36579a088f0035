export * from './config';
export * from './config.schema';
export * from './module-switches';
export * from './per-config';
export * from './switches';
