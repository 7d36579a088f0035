// Public face of the favorites module: the table of records users save and review (reviews uses it too).
export { targetSource, targetSummary, targetTypes, type TargetType } from './favorites.targets';
export { TargetSummarySchema, TargetTypeSchema } from './favorites.schemas';
