import { stableId } from '../../platform/kits/ids/stable-id';
import { defaultLocale, type Locale, type LocalizedText, type NoticeText } from '../../platform/kits/i18n';
import { logger } from '../../platform/core/logging/logger';
import { FCM_BATCH, type PushResult, type PushTransport } from '../../platform/core/push/transport';
import { aggregateKey, nextGroup, type AggregateInput } from './aggregate';
import { getConfig } from '../../platform/core/config';
import { appLinkOf, inboxKindOf, policyFor, type EventPolicy, type KnownEvent, type Surface } from './events';
import './notifications.events';
import {
  buildPushMessage,
  isDeadToken,
  pushDecision,
  withDefaults,
  type NotificationPayload,
  type Preferences,
  type PushMessage,
  type PushSkip,
} from './notifications.model';
import type { Transaction } from 'firebase-admin/firestore';
import { notificationsRepo, type DeliveryDocs, type PushTokenRecord } from './notifications.repo';
import { accounts } from '../users';

export interface Recipient {
  userId: string;
  surface: Surface;
  /** The recipient's language when the caller has read the account already (saves the hub reading it). */
  locale?: Locale;
}

export interface DispatchInput {
  /** From a module's `<m>.events.ts` (`X_EVENTS.notice({ event: … })`). */
  event: KnownEvent;
  recipients: Recipient[];
  /** The ride, order, call, conversation… the event is about. */
  entityId: string;
  /** Distinguishes repeated occurrences of one event on one entity (e.g. a message id); part of the idempotency key. */
  occurrence?: string;
  /**
   * The title and body of the inbox item and the push, rendered in each recipient's language: a catalogue text
   * (`X_TEXTS.text(key, params)`), or `asWritten` for an administrator's own words. Telemetry shows none.
   */
  text?: LocalizedText<NoticeText>;
  /** Chat: the conversation (mute and presence); rides: the ride room (presence). */
  conversationId?: string;
  roomId?: string;
  /** Extra deep-link params (strings). */
  params?: Record<string, string>;
  /** Extra fields of the realtime event document (the vertical's own payload). */
  realtimeData?: Record<string, unknown>;
}

export interface DeliveryReport {
  userId: string;
  surface: Surface;
  notificationId: string;
  duplicate: boolean;
  inbox: boolean;
  realtime: boolean;
  push: { sent: number; failed: number; removedTokens: number } | { skipped: PushSkip | 'no-tokens' };
}

const REALTIME_TTL_MS = 24 * 3600_000;
const TELEMETRY_TTL_MS = 5 * 60_000;

// Deterministic: a repeated delivery of the same occurrence maps to the same documents.
export function notificationId(event: string, entityId: string, userId: string, occurrence = ''): string {
  return stableId({ scope: event, key: [entityId, userId, occurrence], length: 32 });
}

interface Delivery {
  recipient: Recipient;
  id: string;
  payload: NotificationPayload;
  /** In the recipient's language; undefined for telemetry. */
  text?: NoticeText;
}

/** A notice gathering people who did the same thing to one entity (aggregate.ts): the act instead of a text. */
export type AggregatedDispatchInput = Omit<DispatchInput, 'text' | 'occurrence'> & { aggregate: AggregateInput };

/** Every recipient's language known: a dispatch inside a transaction cannot read the accounts. */
export type DispatchInTransactionInput = Omit<DispatchInput, 'recipients'> & { recipients: Array<Recipient & { locale: Locale }> };

// The one way verticals notify: inbox, realtime event and push, decided by the event table.
export function createHub(deps: {
  transport: PushTransport;
  now?: () => number;
  localesOf?: (userIds: string[]) => Promise<Map<string, Locale>>;
  /** Keys aggregated items' hashes (aggregate.ts); the configuration's JWT_SECRET by default. */
  serverSecret?: string;
}) {
  const now = deps.now ?? Date.now;
  const localesOf = deps.localesOf ?? ((userIds: string[]) => accounts.localesOf(userIds));
  let aggregateHashKey: Buffer | undefined;

  // The languages of recipients the caller did not name one for, read together (none for words sent as written).
  async function recipientLocales(input: DispatchInput): Promise<Map<string, Locale>> {
    const policy = policyFor(input.event);
    const known = new Map(input.recipients.flatMap((r) => (r.locale ? [[r.userId, r.locale] as const] : [])));
    const unknown = [...new Set(input.recipients.filter((r) => !known.has(r.userId) && policy?.recipients.includes(r.surface)).map((r) => r.userId))];
    if (!policy || policy.telemetry || !input.text || input.text.asWritten || unknown.length === 0) return known;
    for (const [userId, locale] of await localesOf(unknown)) known.set(userId, locale);
    return known;
  }

  function planFor(policy: EventPolicy, recipient: Recipient, input: DispatchInput): Delivery {
    const id = notificationId(input.event, input.entityId, recipient.userId, input.occurrence);
    const link = policy.deepLink[recipient.surface];
    const appLink = appLinkOf(policy, input.entityId);
    const payload: NotificationPayload = {
      event: input.event,
      kind: inboxKindOf(policy, input.event) ?? 'NONE',
      notificationId: id,
      entityId: input.entityId,
      sfx: policy.sfx ?? '',
      deepLink: { tab: link?.tab ?? '', screen: link?.screen ?? '', params: { id: input.entityId, ...(appLink ? { appLink } : {}), ...(input.params ?? {}) } },
      surface: recipient.surface,
    };
    return { recipient, id, payload };
  }

  // What push decisions need, read for all recipients at once (and while the documents are written):
  // their devices first, then preferences and presence only of those who have a device to push to.
  async function pushInputs(policy: EventPolicy, deliveries: Delivery[], input: DispatchInput, t: number) {
    const surfaces = [...new Set(deliveries.map((d) => d.recipient.surface))];
    const tokens = (
      await Promise.all(
        surfaces.map((surface) =>
          notificationsRepo.tokensOfUsers(
            deliveries.filter((d) => d.recipient.surface === surface).map((d) => d.recipient.userId),
            surface,
          ),
        ),
      )
    ).flat();
    const reachable = [...new Set(tokens.map((tk) => tk.userId))];
    const room = input.roomId ?? (policy.pattern === 'chat.message' && input.conversationId ? `chat_${input.conversationId}` : undefined);
    const needsPrefs = policy.push === 'allowed' && reachable.length > 0;
    const [prefs, present] = await Promise.all([
      needsPrefs ? notificationsRepo.preferencesOf(reachable) : new Map<string, Partial<Preferences>>(),
      needsPrefs && room !== undefined ? notificationsRepo.presentIn(room, reachable, t) : new Set<string>(),
    ]);
    return { prefs, present, tokens };
  }

  // Sends in sendEach chunks of FCM_BATCH. Only dead tokens are removed; other failures are logged and the
  // token kept for a retry. One result per message, in order.
  async function sendAll(outgoing: Array<{ userId: string; message: PushMessage }>): Promise<PushResult[]> {
    const results: PushResult[] = [];
    for (let i = 0; i < outgoing.length; i += FCM_BATCH) {
      results.push(...(await deps.transport.sendEach(outgoing.slice(i, i + FCM_BATCH).map((o) => o.message))));
    }
    const dead: string[] = [];
    results.forEach((r, i) => {
      if (r.success) return;
      if (isDeadToken(r.errorCode)) dead.push(outgoing[i].message.token);
      else logger.warn('push failed; token kept for a retry', { userId: outgoing[i].userId, code: r.errorCode });
    });
    await notificationsRepo.deleteTokens(dead);
    return results;
  }

  // Every allowed recipient's messages, counted per delivery.
  async function sendPush(
    policy: EventPolicy,
    deliveries: Delivery[],
    tokens: PushTokenRecord[],
  ): Promise<Map<Delivery, { sent: number; failed: number; removedTokens: number }>> {
    const counts = new Map(deliveries.map((d) => [d, { sent: 0, failed: 0, removedTokens: 0 }]));
    const byKey = new Map(deliveries.map((d) => [`${d.recipient.surface}\u0000${d.recipient.userId}`, d]));
    const outgoing = tokens.flatMap((t) => {
      const delivery = byKey.get(`${t.surface}\u0000${t.userId}`);
      return delivery?.text
        ? [
            {
              delivery,
              userId: t.userId,
              message: buildPushMessage({ token: t.token, platform: t.platform, policy, payload: delivery.payload, ...delivery.text, now: now() }),
            },
          ]
        : [];
    });
    const results = await sendAll(outgoing);
    results.forEach((r, i) => {
      const count = counts.get(outgoing[i].delivery)!;
      if (r.success) count.sent += 1;
      else {
        count.failed += 1;
        if (isDeadToken(r.errorCode)) count.removedTokens += 1;
      }
    });
    return counts;
  }

  // Everything a dispatch decides before touching the database: who, which ids, which texts, which documents.
  function prepare(input: DispatchInput, locales: Map<string, Locale>) {
    const policy = policyFor(input.event);
    if (!policy) throw new Error(`Unknown event ${input.event}: add it to the event table`);
    if (!policy.telemetry && !input.text) throw new Error(`Event ${input.event} is read by people: give it a text`);
    // One delivery per person (ids derive from the user): a user named twice, with two hats, hears it once.
    const seen = new Set<string>();
    const allowed = input.recipients.filter((r) => policy.recipients.includes(r.surface) && !seen.has(r.userId) && seen.add(r.userId));
    for (const skipped of input.recipients.filter((r) => !policy.recipients.includes(r.surface))) {
      logger.warn('recipient surface not in the event table', { event: input.event, surface: skipped.surface });
    }
    const t = now();
    // One rendering per language (a group of a hundred needs at most two); words sent as written need no language.
    const rendered = new Map<Locale, NoticeText>();
    const textIn = (locale: Locale) => rendered.get(locale) ?? rendered.set(locale, input.text!.render(locale)).get(locale)!;
    const deliveries = allowed.map((r) => {
      const delivery = planFor(policy, r, input);
      if (!policy.telemetry) delivery.text = textIn(locales.get(r.userId) ?? defaultLocale());
      return delivery;
    });
    const kind = inboxKindOf(policy, input.event);
    const realtimeDoc = (d: Delivery) => ({ recipientId: d.recipient.userId, type: policy.realtime, payload: d.payload, data: input.realtimeData ?? {} });
    // 1. Telemetry: realtime only (never stored for long, never pushed). 2. The inbox item and 3. the
    // realtime event otherwise, created together: a repeated delivery finds them there and stops.
    const docs: DeliveryDocs[] = deliveries.map((d) =>
      policy.telemetry
        ? { realtime: { id: `${d.id}-${t}`, data: realtimeDoc(d), ttlMs: TELEMETRY_TTL_MS } }
        : {
            inbox: kind
              ? {
                  id: d.id,
                  data: {
                    recipientId: d.recipient.userId,
                    surface: d.recipient.surface,
                    kind,
                    event: input.event,
                    entityId: input.entityId,
                    title: d.text!.title,
                    body: d.text!.body,
                    data: d.payload,
                    read: false,
                    readAt: null,
                  },
                }
              : undefined,
            realtime: policy.realtime ? { id: d.id, data: realtimeDoc(d), ttlMs: REALTIME_TTL_MS } : undefined,
          },
    );
    const wantsPush = !policy.telemetry && policy.push !== 'never' && deliveries.length > 0;
    return { input, policy, t, deliveries, docs, wantsPush };
  }
  type Prepared = ReturnType<typeof prepare>;

  // Push inputs are read while the documents are written.
  function readPushInputs(prep: Prepared) {
    if (!prep.wantsPush) return undefined;
    const inputs = pushInputs(prep.policy, prep.deliveries, prep.input, prep.t);
    inputs.catch(() => undefined); // awaited in finish(); this only keeps a failure during the writes from going unhandled
    return inputs;
  }

  // 4. Push for the deliveries just created, where the policy, preferences, mute and presence allow. 5. Never SMS.
  async function finish(prep: Prepared, created: boolean[], inputs: ReturnType<typeof readPushInputs>): Promise<DeliveryReport[]> {
    const { policy, deliveries, docs, input } = prep;
    const reports: DeliveryReport[] = deliveries.map((d, i) => ({
      userId: d.recipient.userId,
      surface: d.recipient.surface,
      notificationId: d.id,
      duplicate: !created[i],
      inbox: created[i] && docs[i].inbox !== undefined,
      realtime: created[i] && docs[i].realtime !== undefined,
      push: { skipped: 'policy' },
    }));
    if (!inputs) return reports;
    const { prefs, present, tokens } = await inputs;
    const toPush: Delivery[] = [];
    deliveries.forEach((d, i) => {
      if (!created[i]) return;
      const userPrefs = withDefaults(prefs.get(d.recipient.userId));
      const muted = input.conversationId !== undefined && userPrefs.muted[input.conversationId] === true;
      const decision = pushDecision(policy, userPrefs, { muted, present: present.has(d.recipient.userId) });
      if (decision.send) toPush.push(d);
      else reports[i].push = { skipped: decision.reason };
    });
    const sent = await sendPush(policy, toPush, tokens);
    deliveries.forEach((d, i) => {
      const count = sent.get(d);
      if (count) reports[i].push = count.sent + count.failed === 0 ? { skipped: 'no-tokens' } : count;
    });
    return reports;
  }

  async function dispatch(input: DispatchInput): Promise<DeliveryReport[]> {
    const prep = prepare(input, await recipientLocales(input));
    const inputs = readPushInputs(prep);
    const created = await notificationsRepo.createDeliveries(prep.docs, prep.t);
    return finish(prep, created, inputs);
  }

  // For a transaction that creates the entity the event is about (a new call): the inbox item and the
  // realtime event commit with it, all or nothing. Call the returned function after the commit to push.
  // Only for new entities: an existing notification id would fail the whole transaction.
  function dispatchInTransaction(tx: Transaction, input: DispatchInTransactionInput): () => Promise<DeliveryReport[]> {
    const prep = prepare(input, new Map(input.recipients.map((r): [string, Locale] => [r.userId, r.locale])));
    notificationsRepo.txCreateDeliveries(tx, prep.docs, prep.t);
    return () =>
      finish(
        prep,
        prep.docs.map(() => true),
        readPushInputs(prep),
      );
  }

  /**
   * An aggregated notice (AggregateInput), in a transaction per recipient: the item is created for the first actor,
   * and for each later one its names, count and text change, it is unread again and moves to the top of the inbox
   * (`createdAt` is the latest actor's time: an item may show twice while someone pages their inbox). It pushes when
   * the item is new or read since: a group growing while unread is one push; once read, the next actor starts a new
   * group in the same item. One item per event, entity and recipient; aggregated events have no realtime event.
   */
  async function dispatchAggregated(input: AggregatedDispatchInput): Promise<DeliveryReport[]> {
    const { aggregate } = input;
    const single = aggregate.text({ names: [aggregate.actor.name], count: 1 });
    const locales = await recipientLocales({ ...input, text: single });
    const prep = prepare({ ...input, text: single }, locales);
    const kind = inboxKindOf(prep.policy, input.event);
    if (!kind) throw new Error(`Event ${input.event} has no inbox item to aggregate in`);
    if (prep.policy.realtime) throw new Error(`Event ${input.event} has a realtime event: aggregated notices have none`);
    const inputs = readPushInputs(prep);
    const outcomes = await Promise.all(
      prep.deliveries.map((d, i) =>
        notificationsRepo.aggregateInbox(
          d.id,
          (current) => {
            const next = nextGroup(current, aggregate, (aggregateHashKey ??= aggregateKey(deps.serverSecret ?? getConfig().JWT_SECRET)));
            if (!next) return undefined;
            d.text = aggregate.text(next.group).render(locales.get(d.recipient.userId) ?? defaultLocale());
            return { fields: { ...prep.docs[i].inbox!.data, kind, title: d.text.title, body: d.text.body, group: next.group }, push: next.push };
          },
          prep.t,
        ),
      ),
    );
    const reports = await finish(
      prep,
      outcomes.map((o) => o === 'pushed'),
      inputs,
    );
    return reports.map((r, i) => ({
      ...r,
      duplicate: outcomes[i] === 'unchanged',
      inbox: outcomes[i] !== 'unchanged',
      realtime: false,
      ...(outcomes[i] === 'written' ? { push: { skipped: 'grouped' as const } } : {}),
    }));
  }

  return {
    dispatch,
    dispatchInTransaction,
    dispatchAggregated,
    // Consumer, partner owner and driver of one entity together; the table decides who gets what.
    dispatchFanout(input: Omit<DispatchInput, 'recipients'> & { consumerId?: string; partnerOwnerId?: string; driverId?: string }) {
      const recipients: Recipient[] = [];
      if (input.consumerId) recipients.push({ userId: input.consumerId, surface: 'CON' });
      if (input.partnerOwnerId) recipients.push({ userId: input.partnerOwnerId, surface: 'PAR' });
      if (input.driverId) recipients.push({ userId: input.driverId, surface: 'DRV' });
      const policy = policyFor(input.event);
      return dispatch({ ...input, recipients: recipients.filter((r) => policy?.recipients.includes(r.surface) ?? true) });
    },
  };
}

export type Hub = ReturnType<typeof createHub>;
