import { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { db, inTransaction } from '../../platform/core/firebase/firebase';
import { paginate } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { defineMachine, readHistory, recordNote, transition, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { bookingsService, bookingViewerOf, type BookingView } from '../bookings';
import { partnerRoleOf } from '../partners';
import { schoolRecords } from './schools.catalog';
import { SCHOOL_FOLLOW_UPS } from './schools.collections';

// The school's follow-up of a family it has met (a consultation begun or completed): one lead per consultation, moved
// through its stages by the school's people (state-machine kit, every move in the lead's history), with a note and the
// next contact date. Internal to the school: the family never sees it; administrators with bookings.manage read it.

export const FOLLOW_UP_STATUSES = ['FOLLOWING_UP', 'TRIAL_CLASS', 'APPLIED', 'ENROLLED', 'DECLINED'] as const;
export type FollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];
export const FOLLOW_UP_ACTIONS = ['trial', 'apply', 'enrol', 'decline', 'reopen'] as const;
export type FollowUpAction = (typeof FOLLOW_UP_ACTIONS)[number];

export const followUpMachine = defineMachine<FollowUpStatus, FollowUpAction, 'SCHOOL'>({
  entity: 'follow-up',
  states: FOLLOW_UP_STATUSES,
  moves: {
    trial: { from: 'FOLLOWING_UP', to: 'TRIAL_CLASS', by: 'SCHOOL' },
    apply: { from: ['FOLLOWING_UP', 'TRIAL_CLASS'], to: 'APPLIED', by: 'SCHOOL' },
    enrol: { from: 'APPLIED', to: 'ENROLLED', by: 'SCHOOL' },
    decline: { from: ['FOLLOWING_UP', 'TRIAL_CLASS', 'APPLIED'], to: 'DECLINED', by: 'SCHOOL' },
    reopen: { from: 'DECLINED', to: 'FOLLOWING_UP', by: 'SCHOOL' },
  },
  codes: { transition: 'SCHOOL_FOLLOW_UP_TRANSITION', actor: 'SCHOOL_FOLLOW_UP_NOT_ALLOWED' },
});

interface FollowUpRecord {
  id: string;
  status: FollowUpStatus;
  schoolId: string;
  partnerId: string;
  consumerId: string;
  childName: string;
  childBirthYear: number;
  programKey: string | null;
  programName: string | null;
  note: string | null;
  nextContactAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export const FollowUpSchema = z
  .object({
    id: z.string().describe('The consultation’s id (one follow-up each)'),
    status: z.enum(FOLLOW_UP_STATUSES),
    schoolId: z.string(),
    partnerId: z.string(),
    consumerId: z.string().describe('The family’s account'),
    childName: z.string(),
    childBirthYear: z.number().int(),
    programKey: z.string().nullable(),
    programName: z.string().nullable(),
    note: z.string().nullable(),
    nextContactAt: IsoTimeSchema.nullable(),
    allowed: z.array(z.enum(FOLLOW_UP_ACTIONS)).describe('The moves open from its stage'),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'SchoolFollowUp' });
export type FollowUpView = z.output<typeof FollowUpSchema>;

export const FollowUpFieldsSchema = z
  .object({
    note: z.string().trim().max(2_000).optional(),
    nextContactAt: z.iso.datetime({ offset: true }).nullable().optional().describe('When to call the family next (null: clear it)'),
  })
  .meta({ id: 'SchoolFollowUpFields' });

const followUps = () => typedCollection<FollowUpRecord>(SCHOOL_FOLLOW_UPS);
const notFound = () => new NotFoundError('No such follow-up').withCode('NOT_FOUND');
const MET = ['IN_PROGRESS', 'COMPLETED'];

function followUpView(l: FollowUpRecord): FollowUpView {
  return {
    ...l,
    nextContactAt: isoOrNull(l.nextContactAt),
    allowed: followUpMachine.allowed(l.status, ['SCHOOL']),
    createdAt: iso(l.createdAt),
    updatedAt: iso(l.updatedAt),
  };
}

type Viewer = { userId: string; roles: readonly string[]; permissions?: string[] };
const nextContact = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : Date.parse(v));

export function createSchoolFollowUps(config: Readonly<AppConfig>, now: () => number = Date.now) {
  const isMember = async (partnerId: string, userId: string) => (await partnerRoleOf(partnerId, userId)) !== undefined;
  /** The lead for the school's people; administrators with bookings.manage read it; anyone else 404. */
  async function load(v: Viewer, id: string, write: boolean): Promise<FollowUpRecord> {
    const lead = await readRecord(followUps().doc(id));
    if (!lead) throw notFound();
    if (await isMember(lead.partnerId, v.userId)) return lead;
    if (!write && bookingViewerOf(v).admin) return lead;
    throw notFound();
  }
  const store = (id: string): TransitionStore<FollowUpRecord, FollowUpStatus, FollowUpAction> => ({
    load: (tx) => readRecord(followUps().doc(id), tx),
    save: (tx, next) => tx.set(followUps().doc(id), next),
    ref: () => db().collection(SCHOOL_FOLLOW_UPS).doc(id),
  });

  return {
    /** Opens the follow-up of a consultation the school has held (once: a second call answers the same lead). */
    async open(v: Viewer, consultationId: string, fields: z.output<typeof FollowUpFieldsSchema>): Promise<FollowUpView> {
      // The booking's own access rule first (a stranger: 404), then its school's people only.
      const c: BookingView = await bookingsService(config).get(bookingViewerOf(v), consultationId);
      if (c.vertical !== 'SCHOOL' || !(await isMember(c.partnerId, v.userId))) throw new NotFoundError('No such consultation').withCode('BOOKING_NOT_FOUND');
      if (!MET.includes(c.status))
        throw new ConflictError('Follow a family up once you have met them', { status: c.status }).withCode('SCHOOL_FOLLOW_UP_NOT_READY');
      const at = now();
      const d = c.details as Record<string, unknown>;
      const lead = await inTransaction(async (tx) => {
        const existing = await readRecord(followUps().doc(c.id), tx);
        if (existing) return existing;
        const created: FollowUpRecord = {
          id: c.id,
          status: 'FOLLOWING_UP',
          schoolId: String(d.schoolId),
          partnerId: c.partnerId,
          consumerId: c.consumerId,
          childName: String(d.childName),
          childBirthYear: Number(d.childBirthYear),
          programKey: (d.programKey as string | null) ?? null,
          programName: (d.programName as string | null) ?? null,
          note: fields.note ?? null,
          nextContactAt: nextContact(fields.nextContactAt) ?? null,
          createdAt: at,
          updatedAt: at,
        };
        tx.create(followUps().doc(c.id), created);
        recordNote<FollowUpStatus, FollowUpAction | 'open'>(tx, followUps().doc(c.id), {
          action: 'open',
          status: 'FOLLOWING_UP',
          by: v.userId,
          at,
          reason: fields.note ?? null,
        });
        return created;
      });
      return followUpView(lead);
    },

    async get(v: Viewer, id: string) {
      const lead = await load(v, id, false);
      const history = await readHistory<FollowUpStatus, FollowUpAction | 'open'>(db().collection(SCHOOL_FOLLOW_UPS).doc(id));
      return {
        ...followUpView(lead),
        history: history.map((e) => ({ action: e.action, from: e.from, to: e.to, by: e.by, at: iso(e.at), reason: e.reason ?? null })),
      };
    },

    /** A move to another stage (the note, when given, kept with the move and on the lead). */
    async move(v: Viewer, id: string, action: FollowUpAction, note: string | undefined): Promise<FollowUpView> {
      await load(v, id, true);
      const at = now();
      const moved = await transition(followUpMachine, store(id), {
        action,
        by: v.userId,
        rolesOf: () => ['SCHOOL'],
        apply: (l, to) => ({ ...l, status: to, note: note ?? l.note, updatedAt: at }),
        reason: note ?? null,
        now: at,
        missing: notFound,
      });
      return followUpView(moved.after);
    },

    /** The note and the next contact date, changed alone (the stage is moved with `move`). */
    async update(v: Viewer, id: string, fields: z.output<typeof FollowUpFieldsSchema>): Promise<FollowUpView> {
      await load(v, id, true);
      const patch: Partial<FollowUpRecord> = { updatedAt: now() };
      if (fields.note !== undefined) patch.note = fields.note;
      const next = nextContact(fields.nextContactAt);
      if (next !== undefined) patch.nextContactAt = next;
      const lead = await inTransaction(async (tx) => {
        const current = await readRecord(followUps().doc(id), tx);
        if (!current) throw notFound();
        tx.update(followUps().doc(id), patch);
        return { ...current, ...patch };
      });
      return followUpView(lead);
    },

    /** A school's follow-ups (its people; administrators with bookings.manage), latest change first. */
    async list(v: Viewer, schoolId: string, q: { status?: FollowUpStatus; limit: number; cursor?: string }) {
      const [school] = await schoolRecords().activeByIds([schoolId]);
      if (!school?.partnerId || (!(await isMember(school.partnerId, v.userId)) && !bookingViewerOf(v).admin)) throw new NotFoundError('No such school');
      let query = followUps().where('schoolId', '==', schoolId);
      if (q.status) query = query.where('status', '==', q.status);
      const page = await paginate(
        query,
        [{ field: 'updatedAt', direction: 'desc' }],
        { limit: q.limit, cursor: q.cursor, query: `schools:follow-ups:${schoolId}:${q.status ?? ''}`, caller: v.userId },
        (doc) => doc.data(),
      );
      return { items: page.items.map(followUpView), nextCursor: page.nextCursor };
    },
  };
}
