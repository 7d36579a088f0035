import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { readHistory, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { SUPPORT_CANNED_REPLIES, SUPPORT_TICKETS, TICKET_MESSAGES } from './support.collections';
import type { TicketAction, TicketStatus } from './support.machine';
import type { CannedReplyRecord, MessageRecord, TicketCategory, TicketPriority, TicketRecord } from './support.model';

const tickets = () => typedCollection<TicketRecord & { queueKeys: string[] }>(SUPPORT_TICKETS);
const messagesOf = (ticketId: string) => typedCollection<MessageRecord>(`${SUPPORT_TICKETS}/${ticketId}/${TICKET_MESSAGES}`);
const canned = () => typedCollection<CannedReplyRecord>(SUPPORT_CANNED_REPLIES);

/** The staff queue's filters; each combination of them is one `queueKeys` entry, so any filter is one indexed query. */
export interface QueueFilter {
  status?: TicketStatus;
  category?: TicketCategory;
  priority?: TicketPriority;
  /** An administrator's id, or `none` for the unassigned. */
  assignee?: string;
}

const FILTER_FIELDS = ['status', 'category', 'priority', 'assignee'] as const;

/** The key of a filter: its fields in a fixed order (`all` for none). */
export function queueKeyOf(filter: QueueFilter): string {
  const parts = FILTER_FIELDS.filter((f) => filter[f] !== undefined).map((f) => `${f}=${filter[f]}`);
  return parts.length === 0 ? 'all' : parts.join('|');
}

/** Every filter a ticket matches (16: each subset of its four fields). */
export function queueKeysOf(r: TicketRecord): string[] {
  const own: Required<QueueFilter> = { status: r.status, category: r.category, priority: r.priority, assignee: r.assigneeId ?? 'none' };
  const keys: string[] = [];
  for (let mask = 0; mask < 1 << FILTER_FIELDS.length; mask++) {
    const filter: QueueFilter = {};
    FILTER_FIELDS.forEach((f, i) => {
      if (mask & (1 << i)) (filter as Record<string, string>)[f] = own[f];
    });
    keys.push(queueKeyOf(filter));
  }
  return keys;
}

const stored = (r: TicketRecord) => ({ ...r, queueKeys: queueKeysOf(r) });
const plain = ({ queueKeys: _keys, ...r }: TicketRecord & { queueKeys?: string[] }): TicketRecord => r;

export const QUEUE_ORDERS = { newest: { field: 'createdAt', direction: 'desc' }, due: { field: 'resolveDue', direction: 'asc' } } as const;

export const supportRepo = {
  newId: () => db().collection(SUPPORT_TICKETS).doc().id,
  newMessageId: (ticketId: string) => messagesOf(ticketId).doc().id,
  ticketRef: (id: string) => db().collection(SUPPORT_TICKETS).doc(id),
  get: async (id: string, tx?: Transaction) => {
    const found = await readRecord(tickets().doc(id), tx);
    return found && plain(found);
  },
  create(tx: Transaction, record: TicketRecord, first: MessageRecord): void {
    tx.create(tickets().doc(record.id), stored(record));
    tx.create(messagesOf(record.id).doc(first.id), first);
  },
  /** A change that moves no status (a message, an assignment, a priority): the whole record, its keys again. */
  put(tx: Transaction, record: TicketRecord): void {
    tx.set(tickets().doc(record.id), stored(record));
  },
  putMessage(tx: Transaction, message: MessageRecord): void {
    tx.create(messagesOf(message.ticketId).doc(message.id), message);
  },
  ofOwner(ownerId: string, status: TicketStatus | undefined, page: PageRequest): Promise<Page<TicketRecord>> {
    let query = tickets().where('ownerId', '==', ownerId);
    if (status) query = query.where('status', '==', status);
    return paginate(query, [{ field: 'createdAt', direction: 'desc' }], page, (d) => plain(d.data()));
  },
  queue(filter: QueueFilter, order: keyof typeof QUEUE_ORDERS, page: PageRequest): Promise<Page<TicketRecord>> {
    const query = tickets().where('queueKeys', 'array-contains', queueKeyOf(filter));
    return paginate(query, [QUEUE_ORDERS[order]], page, (d) => plain(d.data()));
  },
  /** The thread oldest first; the owner's view leaves internal notes out (they are never read for them). */
  messages(ticketId: string, withInternal: boolean, page: PageRequest): Promise<Page<MessageRecord>> {
    const all = messagesOf(ticketId);
    const query = withInternal ? all : all.where('internal', '==', false);
    return paginate(query, [{ field: 'createdAt', direction: 'asc' }], page, (d) => d.data());
  },
  /** The ticket as the state-machine kit moves it (its moves go to `support_tickets/{id}/events`). */
  store(
    id: string,
    alongside?: TransitionStore<TicketRecord, TicketStatus, TicketAction>['alongside'],
  ): TransitionStore<TicketRecord, TicketStatus, TicketAction> {
    return {
      load: (tx) => supportRepo.get(id, tx),
      save: (tx, next) => supportRepo.put(tx, next),
      ref: () => supportRepo.ticketRef(id),
      alongside,
    };
  },
  history: (id: string) => readHistory<TicketStatus, TicketAction>(supportRepo.ticketRef(id)),
  canned: {
    newId: () => canned().doc().id,
    get: (id: string, tx?: Transaction) => readRecord(canned().doc(id), tx),
    create: async (record: CannedReplyRecord) => {
      await canned().doc(record.id).create(record);
    },
    put: (tx: Transaction, record: CannedReplyRecord) => {
      tx.set(canned().doc(record.id), record);
    },
    remove: async (id: string) => {
      await canned().doc(id).delete();
    },
    list(category: TicketCategory | undefined, page: PageRequest): Promise<Page<CannedReplyRecord>> {
      const query = category ? canned().where('category', '==', category) : canned();
      return paginate(query, [{ field: 'title', direction: 'asc' }], page, (d) => d.data());
    },
  },
};
