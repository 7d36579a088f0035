export * from './app-error';
export * from './error-body';
export * from './error-handler';
export * from './zod-problems';
export * from './codes';
