// Public face of the schools module: its school catalog (favorites and reviews reach schools through it).
export { SCHOOLS } from './schools.collections';
export function schoolsService() {
  return (require('./schools.catalog') as typeof import('./schools.catalog')).schoolRecords();
}
