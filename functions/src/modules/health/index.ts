// Public face of the health module: liveness and diagnostics only; other modules need nothing from it.
export type { DependencyCheck } from './health.schemas';
