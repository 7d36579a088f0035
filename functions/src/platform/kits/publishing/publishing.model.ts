import type { Transaction } from 'firebase-admin/firestore';
import { defineMachine } from '../state-machine/state-machine';
import type { ErrorCode } from '../../core/errors/codes';
import { VERSIONS } from './publishing.names';

// The publishing kit's records and status table (publishing.ts runs the moves).

export const PUBLISHING_STATUSES = ['DRAFT', 'PUBLISHED', 'UNPUBLISHED', 'ARCHIVED'] as const;
export type PublishingStatus = (typeof PUBLISHING_STATUSES)[number];
export const AUDIT_ACTIONS = ['CREATE', 'EDIT', 'PUBLISH', 'UNPUBLISH', 'ROLLBACK', 'ARCHIVE', 'RESTORE'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export { VERSIONS };

export type Content = Record<string, unknown>;

export interface ContentRecord<C extends Content = Content> {
  id: string;
  status: PublishingStatus;
  /** What the next publish makes live; edited in place, each edit one more `revision`. */
  draft: C;
  revision: number;
  /** The live content (null unless PUBLISHED), its version and the draft revision it came from. */
  live: C | null;
  liveVersion: number | null;
  liveRevision: number | null;
  /** The highest version made (0 before the first publish). */
  latestVersion: number;
  /** Fields of the live content public reads filter on (the spec's `indexOf`); null unless PUBLISHED. */
  index: Record<string, unknown> | null;
  createdBy: string;
  createdAt: number;
  updatedBy: string;
  updatedAt: number;
  publishedBy: string | null;
  publishedAt: number | null;
}

export interface VersionRecord<C extends Content = Content> {
  version: number;
  content: C;
  /** The draft revision published, or null for a rollback (`rollbackOf` names the version it restored). */
  revision: number | null;
  rollbackOf: number | null;
  by: string;
  at: number;
  note: string | null;
}

export interface AuditRecord {
  id: string;
  kind: string;
  entityId: string;
  /** `<kind>:<entityId>`: one filter for one record's trail. */
  entity: string;
  action: AuditAction;
  by: string;
  at: number;
  version: number | null;
  revision: number;
  note: string | null;
}

export interface PublisherSpec<C extends Content> {
  /** What the records are (`banner`, `page`): the audit trail's `kind` and the messages' noun. */
  kind: string;
  collection: string;
  /** The module's audit collection (one per module, every kind in it). */
  audit: string;
  /** Fields public reads query, from the live content (stored as `index`). */
  indexOf?(content: C): Record<string, unknown>;
  /** Writes beside every change of the live content (a public mirror a client listens to); after every read. */
  onLive?(tx: Transaction, id: string, live: { content: C; version: number; at: number } | null): void;
  codes: {
    /** The status does not allow the move (409; `details.status`, `details.allowed`). */
    status: ErrorCode;
    /** The draft moved on from the revision the caller named (409; `details.revision`). */
    revision: ErrorCode;
    /** No such version (404). */
    version: ErrorCode;
    /** The id is taken (409). */
    exists: ErrorCode;
  };
  /** The largest draft, as UTF-8 JSON (default 256 KiB): a record holds its draft and its live content in one document (1 MiB). */
  maxDraftBytes?: number;
}

export interface Change {
  by: string;
  now: number;
  note?: string | null;
}

export interface Changed<C extends Content> {
  record: ContentRecord<C>;
  /** False: nothing to do (the same draft published again, an unpublished record unpublished again). */
  changed: boolean;
}

// One role: whoever the module's routes let edit (a permission, a partner's staff) may make every move.
export const EDITOR = ['EDITOR'] as const;

/** The status table; `entity` names the records in messages ("Cannot archive a banner that is PUBLISHED"). */
export function publishingMachine(codes: PublisherSpec<Content>['codes'], entity: string) {
  return defineMachine({
    entity,
    states: PUBLISHING_STATUSES,
    moves: {
      publish: { from: ['DRAFT', 'PUBLISHED', 'UNPUBLISHED'], to: 'PUBLISHED', by: 'EDITOR' },
      rollback: { from: ['PUBLISHED', 'UNPUBLISHED'], to: 'PUBLISHED', by: 'EDITOR' },
      unpublish: { from: 'PUBLISHED', to: 'UNPUBLISHED', by: 'EDITOR' },
      archive: { from: ['DRAFT', 'UNPUBLISHED'], to: 'ARCHIVED', by: 'EDITOR' },
      restore: { from: 'ARCHIVED', to: 'DRAFT', by: 'EDITOR' },
    },
    // Every move is an editor's, so the actor code is never answered; the status code stands in for it.
    codes: { transition: codes.status, actor: codes.status },
  } as const);
}
export type PublishingAction = 'publish' | 'rollback' | 'unpublish' | 'archive' | 'restore';

/** JSON with keys sorted: two contents compare equal however Firestore ordered their maps. */
export function sameContent(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v as object)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
