export * from './config';
export * from './config.schema';
export * from './per-config';
