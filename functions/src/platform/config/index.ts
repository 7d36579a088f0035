export * from './config';
export * from './config.schema';
