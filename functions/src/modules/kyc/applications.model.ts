import { defineMachine } from '../../platform/kits/state-machine/state-machine';
import type { Role } from '../../platform/core/auth/roles';

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

export const APPLICATION_MACHINE = defineMachine({
  entity: 'application',
  states: APPLICATION_STATUSES,
  moves: {
    approve: { from: 'SUBMITTED', to: 'APPROVED', by: 'ADMIN' },
    reject: { from: ['SUBMITTED', 'NEEDS_INFO'], to: 'REJECTED', by: 'ADMIN' },
    askForInfo: { from: 'SUBMITTED', to: 'NEEDS_INFO', by: 'ADMIN' },
    resubmit: { from: 'NEEDS_INFO', to: 'SUBMITTED', by: 'APPLICANT' },
  },
  codes: { transition: 'APPLICATION_TRANSITION', actor: 'APPLICATION_TRANSITION' },
});
export type ApplicationAction = keyof typeof APPLICATION_MACHINE.definition.moves;

/** The action of an administrator's decision. */
export const DECISION_ACTIONS = { APPROVED: 'approve', REJECTED: 'reject', NEEDS_INFO: 'askForInfo' } as const satisfies Record<string, ApplicationAction>;

/** Whether `actor` may move an application from `from` to `to` (some action of the table does it). */
export function canTransition(from: ApplicationStatus, to: ApplicationStatus, actor: Actor): boolean {
  return (Object.keys(APPLICATION_MACHINE.definition.moves) as ApplicationAction[]).some(
    (action) => APPLICATION_MACHINE.target(action) === to && APPLICATION_MACHINE.can(action, from, [actor]),
  );
}

export const PAPER_KINDS = [
  'IDENTITY',
  'DRIVER_LICENCE',
  'VEHICLE_REGISTRATION',
  'VEHICLE_PHOTO',
  'BUSINESS_LICENCE',
  'PROFESSIONAL_LICENCE',
  'OTHER',
] as const;
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
