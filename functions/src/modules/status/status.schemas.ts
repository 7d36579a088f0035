import { z } from 'zod';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { INCIDENT_STATUSES } from './status.machine';
import { COMPONENTS, IMPACTS } from './status.model';
import { COMPONENT_STATES } from './status.page';

const message = z.string().trim().min(1).max(1000).describe('What users read on the status page');

export const IncidentOpenSchema = z
  .object({
    title: z.string().trim().min(3).max(120),
    impact: z.enum(IMPACTS),
    components: z.array(z.enum(COMPONENTS)).min(1).max(COMPONENTS.length),
    message,
  })
  .meta({ id: 'IncidentOpen' });

export const IncidentMoveSchema = z
  .object({
    message,
    impact: z.enum(IMPACTS).optional().describe('A new impact (unchanged when absent)'),
    monitorMinutes: z.number().int().min(5).max(1440).optional().describe('monitor only: minutes until it resolves by itself (default 30)'),
  })
  .meta({ id: 'IncidentMove' });

export const IncidentSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    impact: z.enum(IMPACTS),
    components: z.array(z.enum(COMPONENTS)),
    status: z.enum(INCIDENT_STATUSES),
    updates: z.array(z.object({ at: IsoTimeSchema, status: z.enum(INCIDENT_STATUSES), message: z.string() })).describe('Oldest first'),
    monitorUntil: IsoTimeSchema.nullable().describe('A MONITORING incident resolves by itself then'),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
    resolvedAt: IsoTimeSchema.nullable(),
  })
  .meta({ id: 'Incident' });

export const StatusPageSchema = z
  .object({
    status: z.enum(COMPONENT_STATES).describe('The worst state of any component'),
    service: z.string(),
    version: z.string(),
    checkedAt: IsoTimeSchema,
    components: z.array(z.object({ name: z.enum(COMPONENTS), state: z.enum(COMPONENT_STATES) })),
    incidents: z.array(IncidentSchema).describe('Not resolved, newest first'),
    recentlyResolved: z.array(IncidentSchema).describe('The last five resolved, last resolved first'),
  })
  .meta({ id: 'StatusPage' });

export const IncidentHistorySchema = z
  .object({
    items: z.array(z.object({ action: z.string(), from: z.string(), to: z.string(), by: z.string(), at: IsoTimeSchema, reason: z.string().nullable() })),
  })
  .meta({ id: 'IncidentHistory' });
