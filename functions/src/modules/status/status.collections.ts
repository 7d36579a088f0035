import { documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Names and the task queue, apart from the model: the module definition (loaded at every cold start) needs only these.
/** `status_incidents/{id}`: the platform's incidents (API only), each with its moves in `events`. */
export const STATUS_INCIDENTS = 'status_incidents';
/** Resolves a MONITORING incident when its monitoring window ends. */
export const INCIDENT_MONITOR_QUEUE = documentTaskQueue('incidentMonitorEnd', 'incidentId');
