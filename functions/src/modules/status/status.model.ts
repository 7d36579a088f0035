import type { IncidentStatus } from './status.machine';

/** What the status page reports on: the API and the dependencies its health probes and kits reach. */
export const COMPONENTS = ['api', 'firestore', 'auth', 'storage', 'push', 'mail', 'sms', 'payments'] as const;
export type Component = (typeof COMPONENTS)[number];

/** How bad an incident is; a component's state is the worst impact among the unresolved incidents naming it. */
export const IMPACTS = ['MINOR', 'MAJOR', 'OUTAGE'] as const;
export type Impact = (typeof IMPACTS)[number];

/** How long a MONITORING incident stays open when nobody resolves or reopens it (default; 5 min to 24 h). */
export const DEFAULT_MONITOR_MINUTES = 30;

export interface IncidentUpdate {
  at: number;
  status: IncidentStatus;
  message: string;
  by: string;
}

export interface IncidentRecord {
  id: string;
  title: string;
  impact: Impact;
  components: Component[];
  status: IncidentStatus;
  /** Newest last; at most the first and the last 49 are kept. */
  updates: IncidentUpdate[];
  /** When a MONITORING incident resolves by itself (epoch ms); null in other statuses. */
  monitorUntil: number | null;
  createdAt: number;
  updatedAt: number;
  resolvedAt: number | null;
}

const MAX_UPDATES = 50;

export function withUpdate(r: IncidentRecord, update: IncidentUpdate): IncidentUpdate[] {
  const all = [...r.updates, update];
  return all.length <= MAX_UPDATES ? all : [all[0], ...all.slice(all.length - MAX_UPDATES + 1)];
}
