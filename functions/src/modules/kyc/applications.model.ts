import { ConflictError } from '../../platform/errors/app-error';
import type { Role } from '../../platform/auth/roles';

// Driver and partner applications share one life cycle:
//   SUBMITTED  --admin--> APPROVED (papers complete) | REJECTED | NEEDS_INFO
//   NEEDS_INFO --applicant resubmits--> SUBMITTED;  NEEDS_INFO --admin--> REJECTED
//   APPROVED and REJECTED are final (a rejected applicant may apply again).
// Firestore layout: `applications/{id}` (driver and partner), `kyc_papers/{id}` and
// `pending_applications/{userId}` (applications.pending.ts); clients never read them directly.
export const APPLICATIONS = 'applications';
export const KYC_PAPERS = 'kyc_papers';
export const PENDING_APPLICATIONS = 'pending_applications';

export const APPLICATION_STATUSES = ['SUBMITTED', 'NEEDS_INFO', 'APPROVED', 'REJECTED'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const APPLICATION_KINDS = ['DRIVER', 'PARTNER'] as const;
export type ApplicationKind = (typeof APPLICATION_KINDS)[number];
export const OPEN_STATUSES: readonly ApplicationStatus[] = ['SUBMITTED', 'NEEDS_INFO'];

export type Actor = 'ADMIN' | 'APPLICANT';

const TRANSITIONS: Record<ApplicationStatus, Partial<Record<ApplicationStatus, Actor>>> = {
  SUBMITTED: { APPROVED: 'ADMIN', REJECTED: 'ADMIN', NEEDS_INFO: 'ADMIN' },
  NEEDS_INFO: { SUBMITTED: 'APPLICANT', REJECTED: 'ADMIN' },
  APPROVED: {},
  REJECTED: {},
};

export function canTransition(from: ApplicationStatus, to: ApplicationStatus, actor: Actor): boolean {
  return TRANSITIONS[from][to] === actor;
}

export function assertTransition(from: ApplicationStatus, to: ApplicationStatus, actor: Actor): void {
  if (!canTransition(from, to, actor)) {
    const allowed = Object.entries(TRANSITIONS[from])
      .filter(([, who]) => who === actor)
      .map(([status]) => status);
    throw new ConflictError(`An application in ${from} cannot move to ${to}`, { from, to, allowed }).withCode('APPLICATION_TRANSITION');
  }
}

export const PAPER_KINDS = ['IDENTITY', 'DRIVER_LICENCE', 'VEHICLE_REGISTRATION', 'VEHICLE_PHOTO', 'BUSINESS_LICENCE', 'PROFESSIONAL_LICENCE', 'OTHER'] as const;
export type PaperKind = (typeof PAPER_KINDS)[number];

export const REQUIRED_PAPERS: Record<ApplicationKind, readonly PaperKind[]> = {
  DRIVER: ['IDENTITY', 'DRIVER_LICENCE', 'VEHICLE_REGISTRATION'],
  PARTNER: ['IDENTITY', 'BUSINESS_LICENCE'],
};

export const ALLOWED_PAPERS: Record<ApplicationKind, readonly PaperKind[]> = {
  DRIVER: ['IDENTITY', 'DRIVER_LICENCE', 'VEHICLE_REGISTRATION', 'VEHICLE_PHOTO', 'OTHER'],
  PARTNER: ['IDENTITY', 'BUSINESS_LICENCE', 'PROFESSIONAL_LICENCE', 'OTHER'],
};

export function missingPapers(kind: ApplicationKind, present: readonly PaperKind[]): PaperKind[] {
  return REQUIRED_PAPERS[kind].filter((required) => !present.includes(required));
}

export interface ApplicationRecord {
  id: string;
  kind: ApplicationKind;
  userId: string;
  status: ApplicationStatus;
  /** Kind-specific fields (driver: name, vehicle…; partner: business). */
  details: Record<string, unknown>;
  reason: string | null;
  reviewedBy: string | null;
  reviewedAt: number | null;
  grantedRoles: Role[];
  history: Array<{ status: ApplicationStatus; at: number; by: string; reason: string | null }>;
  createdAt: number;
  updatedAt: number;
}

export interface PaperRecord {
  id: string;
  ownerId: string;
  applicationId: string;
  kind: PaperKind;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  objectKey: string;
  filename: string;
  createdAt: number;
}
