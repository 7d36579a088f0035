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
import { SCHOOL_LEADS } from './schools.collections';

// The school's follow-up of a family it has met (a consultation begun or completed): one lead per consultation, moved
// through its stages by the school's people (state-machine kit, every move in the lead's history), with a note and the
// next contact date. Internal to the school: the family never sees it; administrators with bookings.manage read it.

export const LEAD_STATUSES = ['FOLLOWING_UP', 'TRIAL_CLASS', 'APPLIED', 'ENROLLED', 'DECLINED'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_ACTIONS = ['trial', 'apply', 'enrol', 'decline', 'reopen'] as const;
export type LeadAction = (typeof LEAD_ACTIONS)[number];

export const leadMachine = defineMachine<LeadStatus, LeadAction, 'SCHOOL'>({
  entity: 'follow-up',
  states: LEAD_STATUSES,
  moves: {
    trial: { from: 'FOLLOWING_UP', to: 'TRIAL_CLASS', by: 'SCHOOL' },
    apply: { from: ['FOLLOWING_UP', 'TRIAL_CLASS'], to: 'APPLIED', by: 'SCHOOL' },
    enrol: { from: 'APPLIED', to: 'ENROLLED', by: 'SCHOOL' },
    decline: { from: ['FOLLOWING_UP', 'TRIAL_CLASS', 'APPLIED'], to: 'DECLINED', by: 'SCHOOL' },
    reopen: { from: 'DECLINED', to: 'FOLLOWING_UP', by: 'SCHOOL' },
  },
  codes: { transition: 'SCHOOL_LEAD_TRANSITION', actor: 'SCHOOL_LEAD_NOT_ALLOWED' },
});

interface LeadRecord {
  id: string;
  status: LeadStatus;
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

export const LeadSchema = z
  .object({
    id: z.string().describe('The consultation’s id (one follow-up each)'),
    status: z.enum(LEAD_STATUSES),
    schoolId: z.string(),
    partnerId: z.string(),
    consumerId: z.string().describe('The family’s account'),
    childName: z.string(),
    childBirthYear: z.number().int(),
    programKey: z.string().nullable(),
    programName: z.string().nullable(),
    note: z.string().nullable(),
    nextContactAt: IsoTimeSchema.nullable(),
    allowed: z.array(z.enum(LEAD_ACTIONS)).describe('The moves open from its stage'),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'SchoolLead' });
export type LeadView = z.output<typeof LeadSchema>;

export const LeadFieldsSchema = z
  .object({
    note: z.string().trim().max(2_000).optional(),
    nextContactAt: z.iso.datetime({ offset: true }).nullable().optional().describe('When to call the family next (null: clear it)'),
  })
  .meta({ id: 'SchoolLeadFields' });

const leads = () => typedCollection<LeadRecord>(SCHOOL_LEADS);
const notFound = () => new NotFoundError('No such follow-up').withCode('NOT_FOUND');
const MET = ['IN_PROGRESS', 'COMPLETED'];

function leadView(l: LeadRecord): LeadView {
  return {
    ...l,
    nextContactAt: isoOrNull(l.nextContactAt),
    allowed: leadMachine.allowed(l.status, ['SCHOOL']),
    createdAt: iso(l.createdAt),
    updatedAt: iso(l.updatedAt),
  };
}

type Viewer = { userId: string; roles: readonly string[]; permissions?: string[] };
const nextContact = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : Date.parse(v));

export function createSchoolLeads(config: Readonly<AppConfig>, now: () => number = Date.now) {
  const isMember = async (partnerId: string, userId: string) => (await partnerRoleOf(partnerId, userId)) !== undefined;
  /** The lead for the school's people; administrators with bookings.manage read it; anyone else 404. */
  async function load(v: Viewer, id: string, write: boolean): Promise<LeadRecord> {
    const lead = await readRecord(leads().doc(id));
    if (!lead) throw notFound();
    if (await isMember(lead.partnerId, v.userId)) return lead;
    if (!write && bookingViewerOf(v).admin) return lead;
    throw notFound();
  }
  const store = (id: string): TransitionStore<LeadRecord, LeadStatus, LeadAction> => ({
    load: (tx) => readRecord(leads().doc(id), tx),
    save: (tx, next) => tx.set(leads().doc(id), next),
    ref: () => db().collection(SCHOOL_LEADS).doc(id),
  });

  return {
    /** Opens the follow-up of a consultation the school has held (once: a second call answers the same lead). */
    async open(v: Viewer, consultationId: string, fields: z.output<typeof LeadFieldsSchema>): Promise<LeadView> {
      // The booking's own access rule first (a stranger: 404), then its school's people only.
      const c: BookingView = await bookingsService(config).get(bookingViewerOf(v), consultationId);
      if (c.vertical !== 'SCHOOL' || !(await isMember(c.partnerId, v.userId))) throw new NotFoundError('No such consultation').withCode('BOOKING_NOT_FOUND');
      if (!MET.includes(c.status)) throw new ConflictError('Follow a family up once you have met them', { status: c.status }).withCode('SCHOOL_LEAD_NOT_READY');
      const at = now();
      const d = c.details as Record<string, unknown>;
      const lead = await inTransaction(async (tx) => {
        const existing = await readRecord(leads().doc(c.id), tx);
        if (existing) return existing;
        const created: LeadRecord = {
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
        tx.create(leads().doc(c.id), created);
        recordNote<LeadStatus, LeadAction | 'open'>(tx, leads().doc(c.id), {
          action: 'open',
          status: 'FOLLOWING_UP',
          by: v.userId,
          at,
          reason: fields.note ?? null,
        });
        return created;
      });
      return leadView(lead);
    },

    async get(v: Viewer, id: string) {
      const lead = await load(v, id, false);
      const history = await readHistory<LeadStatus, LeadAction | 'open'>(db().collection(SCHOOL_LEADS).doc(id));
      return {
        ...leadView(lead),
        history: history.map((e) => ({ action: e.action, from: e.from, to: e.to, by: e.by, at: iso(e.at), reason: e.reason ?? null })),
      };
    },

    /** A move to another stage (the note, when given, kept with the move and on the lead). */
    async move(v: Viewer, id: string, action: LeadAction, note: string | undefined): Promise<LeadView> {
      await load(v, id, true);
      const at = now();
      const moved = await transition(leadMachine, store(id), {
        action,
        by: v.userId,
        rolesOf: () => ['SCHOOL'],
        apply: (l, to) => ({ ...l, status: to, note: note ?? l.note, updatedAt: at }),
        reason: note ?? null,
        now: at,
        missing: notFound,
      });
      return leadView(moved.after);
    },

    /** The note and the next contact date, changed alone (the stage is moved with `move`). */
    async update(v: Viewer, id: string, fields: z.output<typeof LeadFieldsSchema>): Promise<LeadView> {
      await load(v, id, true);
      const patch: Partial<LeadRecord> = { updatedAt: now() };
      if (fields.note !== undefined) patch.note = fields.note;
      const next = nextContact(fields.nextContactAt);
      if (next !== undefined) patch.nextContactAt = next;
      const lead = await inTransaction(async (tx) => {
        const current = await readRecord(leads().doc(id), tx);
        if (!current) throw notFound();
        tx.update(leads().doc(id), patch);
        return { ...current, ...patch };
      });
      return leadView(lead);
    },

    /** A school's follow-ups (its people; administrators with bookings.manage), next contact first, then newest. */
    async list(v: Viewer, schoolId: string, q: { status?: LeadStatus; limit: number; cursor?: string }) {
      const [school] = await schoolRecords().activeByIds([schoolId]);
      if (!school?.partnerId || (!(await isMember(school.partnerId, v.userId)) && !bookingViewerOf(v).admin)) throw new NotFoundError('No such school');
      let query = leads().where('schoolId', '==', schoolId);
      if (q.status) query = query.where('status', '==', q.status);
      const page = await paginate(
        query,
        [{ field: 'updatedAt', direction: 'desc' }],
        { limit: q.limit, cursor: q.cursor, query: `schools:leads:${schoolId}:${q.status ?? ''}`, caller: v.userId },
        (doc) => doc.data(),
      );
      return { items: page.items.map(leadView), nextCursor: page.nextCursor };
    },
  };
}
