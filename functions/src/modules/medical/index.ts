// Public face of the medical module: its clinic catalog (favorites and reviews reach clinics through it).
export { MEDICAL_CLINICS } from './medical.collections';
export function clinicsService() {
  return (require('./medical.catalog') as typeof import('./medical.catalog')).clinicRecords();
}
