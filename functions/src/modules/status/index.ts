// Public face of the status module: the incidents collection and statuses (other modules read nothing else of it).
export { STATUS_INCIDENTS } from './status.collections';
export { INCIDENT_STATUSES, type IncidentStatus } from './status.machine';
