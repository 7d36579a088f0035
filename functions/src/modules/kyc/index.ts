// Public face of the kyc module: applications (driver, partner) and their papers. The driver and partners
// modules open, review and approve applications through these commands; none touches the records.
import { applicationsRepo, newApplication } from './applications.repo';
import type { ApplicationKind, ApplicationRecord } from './applications.model';

export type { ApplicationKind, ApplicationRecord, ApplicationStatus } from './applications.model';
export type { Decision, Grant, KycService } from './kyc.service';
export { applicationView } from './kyc.service';
export { ApplicationSchema } from './kyc.schemas';
export { applicationReviewRoutes } from './application-review.routes';
export { kycServiceFor } from './kyc.wiring';
export { recordPendingApplication, claimPendingApplication } from './applications.pending';

export const applications = {
  /** The account's applications of a kind that are not REJECTED (read in the caller's transaction). */
  txNotRejectedOf: (tx: FirebaseFirestore.Transaction, userId: string, kind: ApplicationKind) => applicationsRepo.txOpenOf(tx, userId, kind),
  /** Opens a SUBMITTED application in the caller's transaction (after its reads); returns it. */
  txOpen(
    tx: FirebaseFirestore.Transaction,
    fields: { kind: ApplicationKind; userId: string; details: Record<string, unknown>; now: number },
  ): ApplicationRecord {
    const created = newApplication(fields);
    applicationsRepo.txCreate(tx, created);
    return created;
  },
  newId: () => applicationsRepo.newId(),
  countOpen: (kind: ApplicationKind) => applicationsRepo.countOpen(kind),
};
