import { iso, isoOrNull } from '../../platform/kits/time/time';
import type { IncidentRecord } from './status.model';

export function incidentView(r: IncidentRecord) {
  return {
    id: r.id,
    title: r.title,
    impact: r.impact,
    components: r.components,
    status: r.status,
    updates: r.updates.map((u) => ({ at: iso(u.at), status: u.status, message: u.message })),
    monitorUntil: isoOrNull(r.monitorUntil),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    resolvedAt: isoOrNull(r.resolvedAt),
  };
}
