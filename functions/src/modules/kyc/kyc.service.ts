import { iso, isoOrNull } from '../../platform/kits/time/time';
import { truncateText } from '../../platform/kits/text/text';
import { sha256 } from '../../platform/kits/ids/digest';
import type { AuthContext } from '../../platform/core/auth/access-token';
import type { Role } from '../../platform/core/auth/roles';
import { assertPermission } from '../../platform/core/auth/guard';
import { BadRequestError, ConflictError, NotFoundError, UnsupportedMediaTypeError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';
import { sniffDocumentType } from '../../platform/kits/media/sniff';
import type { UploadedFile } from '../../platform/core/http/multipart';
import type { ObjectStorage } from '../../platform/core/storage/storage';
import { transition, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import {
  ALLOWED_PAPERS,
  APPLICATION_MACHINE,
  DECISION_ACTIONS,
  missingPapers,
  OPEN_STATUSES,
  type ApplicationAction,
  type ApplicationKind,
  type ApplicationRecord,
  type ApplicationStatus,
  type PaperKind,
  type PaperRecord,
} from './applications.model';
import { applicationsRepo } from './applications.repo';
import { normalizeRoles, accounts } from '../users';

export const PAPER_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;

export function paperView(p: PaperRecord) {
  return {
    id: p.id,
    applicationId: p.applicationId,
    kind: p.kind,
    contentType: p.contentType,
    sizeBytes: p.sizeBytes,
    filename: p.filename,
    sha256: p.sha256,
    createdAt: iso(p.createdAt),
  };
}

export function applicationView(app: ApplicationRecord, papers: PaperRecord[]) {
  const present = papers.map((p) => p.kind);
  return {
    id: app.id,
    kind: app.kind,
    userId: app.userId,
    status: app.status,
    details: app.details,
    reason: app.reason,
    grantedRoles: app.grantedRoles,
    papers: papers.map(paperView),
    missingPapers: missingPapers(app.kind, present),
    history: app.history.map((h) => ({ ...h, at: iso(h.at) })),
    reviewedBy: app.reviewedBy,
    reviewedAt: isoOrNull(app.reviewedAt),
    createdAt: iso(app.createdAt),
    updatedAt: iso(app.updatedAt),
  };
}

export interface Decision {
  status: Extract<ApplicationStatus, 'APPROVED' | 'REJECTED' | 'NEEDS_INFO'>;
  reason?: string;
}

// What an approval grants, supplied by the driver and partner modules. `write` runs after every read of the
// decision and before its writes, so it may read first (e.g. whether a profile exists), then write.
export interface Grant {
  roles: Role[];
  details?: Record<string, unknown>;
  write(tx: FirebaseFirestore.Transaction, app: ApplicationRecord, now: number): void | Promise<void>;
}

const isAdmin = (auth: AuthContext) => auth.roles.includes('ADMIN');

export function createKycService(deps: { storage: ObjectStorage; maxFileBytes: number; now?: () => number }) {
  const now = deps.now ?? Date.now;

  async function ownOpenApplication(userId: string, applicationId: string): Promise<ApplicationRecord> {
    const app = await applicationsRepo.get(applicationId);
    if (!app || app.userId !== userId) throw new NotFoundError('Application not found');
    if (!OPEN_STATUSES.includes(app.status)) throw new ConflictError(`Papers cannot change once the application is ${app.status}`);
    return app;
  }

  // The application as the state machine reads and writes it; `visible` hides others' applications (404).
  const storeOf = (id: string, visible: (app: ApplicationRecord) => boolean): TransitionStore<ApplicationRecord, ApplicationStatus, ApplicationAction> => ({
    load: async (tx) => {
      const app = await applicationsRepo.get(id, tx);
      return app && visible(app) ? app : undefined;
    },
    save: (tx, next) => applicationsRepo.txSave(tx, next),
    ref: (app) => applicationsRepo.ref(app.id),
  });
  const moved = (app: ApplicationRecord, to: ApplicationStatus, by: string, t: number, reason: string | null): ApplicationRecord => ({
    ...app,
    status: to,
    reason: to === 'SUBMITTED' ? app.reason : reason,
    updatedAt: t,
    history: [...app.history, { status: to, at: t, by, reason }],
  });

  return {
    async uploadPaper(auth: AuthContext, fields: { applicationId: string; kind: PaperKind }, file: UploadedFile) {
      const app = await ownOpenApplication(auth.userId, fields.applicationId);
      if (!ALLOWED_PAPERS[app.kind].includes(fields.kind)) {
        throw new BadRequestError(`A ${app.kind} application takes papers of kinds ${ALLOWED_PAPERS[app.kind].join(', ')}`);
      }
      const sniffed = sniffDocumentType(file.data);
      if (!sniffed) throw new UnsupportedMediaTypeError(`Papers must be ${PAPER_CONTENT_TYPES.join(', ')}; the bytes are none of these`);
      if (file.declaredType !== sniffed) throw new UnsupportedMediaTypeError(`Declared ${file.declaredType} but the bytes are ${sniffed}`);
      const id = applicationsRepo.newPaperId();
      const paper: PaperRecord = {
        id,
        ownerId: auth.userId,
        applicationId: app.id,
        kind: fields.kind,
        contentType: sniffed,
        sizeBytes: file.data.length,
        sha256: sha256(file.data),
        objectKey: `kyc/${auth.userId}/${id}`,
        filename: truncateText(file.filename, 200),
        createdAt: now(),
      };
      await deps.storage.put(paper.objectKey, file.data, sniffed);
      try {
        await applicationsRepo.createPaper(paper);
      } catch (err) {
        // No orphan object when the record cannot be written.
        await deps.storage.delete(paper.objectKey).catch((e: Error) => logger.error('orphan paper object', { key: paper.objectKey, error: e.message }));
        throw err;
      }
      return paperView(paper);
    },

    async myPapers(userId: string) {
      return (await applicationsRepo.papersOwnedBy(userId)).map(paperView);
    },

    // The owner, and administrators holding kyc.read; anyone else sees a missing paper.
    async paperFile(auth: AuthContext, id: string) {
      const paper = await applicationsRepo.getPaper(id);
      if (!paper || (paper.ownerId !== auth.userId && !isAdmin(auth))) throw new NotFoundError('Paper not found');
      if (paper.ownerId !== auth.userId) assertPermission(auth, 'kyc.read');
      const object = await deps.storage.get(paper.objectKey);
      if (!object) throw new NotFoundError('Paper file not found');
      return { ...object, filename: paper.filename };
    },

    async deletePaper(auth: AuthContext, id: string) {
      const paper = await applicationsRepo.getPaper(id);
      if (!paper || paper.ownerId !== auth.userId) throw new NotFoundError('Paper not found');
      await ownOpenApplication(auth.userId, paper.applicationId);
      await applicationsRepo.deletePaper(id);
      await deps.storage.delete(paper.objectKey);
      return { deleted: true as const };
    },

    async myApplications(userId: string) {
      const apps = await applicationsRepo.listOf(userId);
      return Promise.all(apps.map(async (a) => applicationView(a, await applicationsRepo.papersOf(a.id))));
    },

    // NEEDS_INFO -> SUBMITTED, by the applicant once the papers are fixed.
    async resubmit(userId: string, applicationId: string) {
      const t = now();
      const { after } = await transition(
        APPLICATION_MACHINE,
        storeOf(applicationId, (app) => app.userId === userId),
        {
          action: 'resubmit',
          by: userId,
          rolesOf: () => ['APPLICANT'],
          apply: (current, to) => moved(current, to, userId, t, null),
          now: t,
          missing: () => new NotFoundError('Application not found'),
        },
      );
      return applicationView(after, await applicationsRepo.papersOf(after.id));
    },

    async list(kind: ApplicationKind, filter: { status?: ApplicationStatus; limit: number; cursor?: string }, adminId: string) {
      const page = await applicationsRepo.list(kind, filter, adminId);
      const items = await Promise.all(page.items.map(async (a) => applicationView(a, await applicationsRepo.papersOf(a.id))));
      return { applications: items, nextCursor: page.nextCursor };
    },

    async get(kind: ApplicationKind, id: string) {
      const app = await applicationsRepo.get(id);
      if (!app || app.kind !== kind) throw new NotFoundError('Application not found');
      return applicationView(app, await applicationsRepo.papersOf(id));
    },

    // An administrator's decision. Approval needs complete papers and grants roles atomically with
    // the kind-specific records (driver profile, partner) that `grant` writes.
    async decide(kind: ApplicationKind, id: string, decision: Decision, adminId: string, grant: (app: ApplicationRecord) => Grant) {
      if (decision.status !== 'APPROVED' && !decision.reason) {
        throw new BadRequestError('A reason is required to reject or to ask for more information', [{ field: 'body.reason', message: 'is required' }]);
      }
      const t = now();
      const action: ApplicationAction = DECISION_ACTIONS[decision.status];
      let granted: Grant | undefined;
      const { after: app } = await transition(
        APPLICATION_MACHINE,
        {
          ...storeOf(id, (current) => current.kind === kind),
          // Approval: complete papers, then the roles and the kind's records (driver profile, partner), atomically.
          async alongside(tx, approved) {
            if (action !== 'approve') return;
            const missing = missingPapers(
              kind,
              (await applicationsRepo.txPapersOf(tx, id)).map((p) => p.kind),
            );
            if (missing.length > 0)
              throw new ConflictError(`Papers incomplete: missing ${missing.join(', ')}`, { missingPapers: missing }).withCode('PAPERS_INCOMPLETE');
            const user = await accounts.get(approved.userId, tx);
            if (!user) throw new ConflictError('The applicant account no longer exists');
            await granted!.write(tx, approved, t);
            accounts.txPatch(tx, user, { roles: normalizeRoles([...user.roles, ...granted!.roles]), updatedAt: t, updatedBy: adminId });
          },
        },
        {
          action,
          by: adminId,
          rolesOf: () => ['ADMIN'],
          reason: decision.reason ?? null,
          apply: (current, to) => {
            const next = { ...moved(current, to, adminId, t, decision.reason ?? null), reviewedBy: adminId, reviewedAt: t };
            if (to !== 'APPROVED') return next;
            granted = grant(current);
            return { ...next, grantedRoles: granted.roles, details: { ...current.details, ...(granted.details ?? {}) } };
          },
          now: t,
          missing: () => new NotFoundError('Application not found'),
        },
      );
      return applicationView(app, await applicationsRepo.papersOf(app.id));
    },
  };
}

export type KycService = ReturnType<typeof createKycService>;
