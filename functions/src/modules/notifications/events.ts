// The spec's event matrix, push channels, sounds and deep links as one table of data.
// The hub (hub.ts) reads it; verticals only name an event.
export const SURFACES = ['CON', 'PAR', 'DRV'] as const;
export type Surface = (typeof SURFACES)[number];

export const SOCIAL_KINDS = ['SOCIAL_LIKE', 'SOCIAL_COMMENT', 'SOCIAL_FOLLOW', 'SOCIAL_MENTION', 'SOCIAL_SHARE'] as const;
export const INBOX_KINDS = ['CHAT_MESSAGE', 'CALL_INCOMING', 'CALL_MISSED', 'RIDE', 'ORDER', 'BOOKING', 'WALLET', 'SYSTEM', ...SOCIAL_KINDS] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

// `courier:location` is beyond the spec: a courier's position for the customer of a shared job (driver module).
export const REALTIME_EVENTS = ['message:new', 'call:ring', 'call:ended', 'ride:status', 'ride:location', 'courier:location'] as const;
export type RealtimeEvent = (typeof REALTIME_EVENTS)[number];

export const ANDROID_CHANNELS = ['app-calls', 'app-chat', 'app-rides', 'app-orders'] as const;
export type AndroidChannel = (typeof ANDROID_CHANNELS)[number];

// The spec's single push switch, split per channel under it (calls and security ignore both).
export const PREFERENCE_CHANNELS = ['chat', 'ride', 'order', 'wallet', 'social', 'promo'] as const;
export type PreferenceChannel = (typeof PREFERENCE_CHANNELS)[number];

/** never: no push; allowed: push when preferences (and mute, presence) allow; always: forced, high priority. */
export type PushPolicy = 'never' | 'allowed' | 'always';

export interface DeepLinkTarget {
  tab: string;
  screen: string;
}

export interface EventPolicy {
  /** Exact name, or a family ending in `*` (booking.hotel.*, booking.rental.viewing*, social.*). */
  pattern: string;
  /** Inbox kind; null: no inbox item (telemetry). `SOCIAL_*` picks the kind from the event suffix. */
  kind: InboxKind | 'SOCIAL_*' | null;
  recipients: readonly Surface[];
  push: PushPolicy;
  realtime: RealtimeEvent | null;
  sfx: string | null;
  androidChannel: AndroidChannel | null;
  preference: PreferenceChannel | null;
  /** Where a tap opens, per surface (absent: the surface has no screen for it). */
  deepLink: Partial<Record<Surface, DeepLinkTarget>>;
  appLink: 'rides' | 'orders' | 'chat' | null;
  /** A newer push of the same entity replaces the older one on the device. */
  collapse: boolean;
  /** Push time to live: short for rings. */
  ttlSec: number;
  /** Telemetry: realtime only, never stored or pushed. */
  telemetry?: true;
}

// The event table is owned row by row: each module declares the events it sends in its `<m>.events.ts` with
// `defineEvents` (registered when that file loads) and names those rows in its definition (`events`), so loading
// the module list registers every row and refuses a pattern two modules claim; it gets a typed `notice()` builder:
// an event name outside its rows does not compile.
const registry = new Map<string, EventPolicy>();

/** Adds a module's rows to the hub's table; a second, different row for a pattern is a programming error. */
export function registerEvents(rows: readonly EventPolicy[]): void {
  for (const row of rows) {
    const known = registry.get(row.pattern);
    if (known && JSON.stringify(known) !== JSON.stringify(row)) throw new Error(`event ${row.pattern} is declared twice, differently`);
    registry.set(row.pattern, row);
  }
}

/** Every row registered so far. */
export function eventPolicies(): EventPolicy[] {
  return [...registry.values()];
}

// `booking.hotel.*` stands for every `booking.hotel.<something>`.
type EventNameOf<P extends string> = P extends `${infer Prefix}*` ? `${Prefix}${string}` : P;

declare const knownEvent: unique symbol;
/** An event name a module declared with defineEvents; only `notice()` makes one, so dispatch takes no other. */
export type KnownEvent = string & { readonly [knownEvent]: true };

/** Declares a module's rows and returns them with a typed builder of dispatch inputs for exactly those events. */
export function defineEvents<const Rows extends readonly EventPolicy[]>(rows: Rows) {
  registerEvents(rows);
  type Name = EventNameOf<Rows[number]['pattern']>;
  return {
    rows,
    /** A dispatch input for one of these events: another name does not compile. */
    notice<I extends { event: Name }>(input: I): Omit<I, 'event'> & { event: KnownEvent } {
      return { ...input, event: input.event as string as KnownEvent };
    },
  };
}

export const link = (tab: string, screen: string): DeepLinkTarget => ({ tab, screen });
export const HOUR = 3600;

function matches(pattern: string, event: string): boolean {
  if (!pattern.endsWith('*')) return pattern === event;
  const prefix = pattern.slice(0, -1);
  return event.startsWith(prefix) && event.length > prefix.length;
}

export function policyFor(event: string): EventPolicy | undefined {
  const exact = registry.get(event);
  if (exact) return exact;
  for (const policy of registry.values()) if (matches(policy.pattern, event)) return policy;
  return undefined;
}

// social.like -> SOCIAL_LIKE (unknown social suffixes keep their own SOCIAL_ kind).
export function inboxKindOf(policy: EventPolicy, event: string): InboxKind | null {
  if (policy.kind !== 'SOCIAL_*') return policy.kind;
  return `SOCIAL_${event
    .slice('social.'.length)
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase()}` as InboxKind;
}

export function appLinkOf(policy: EventPolicy, entityId: string): string | null {
  return policy.appLink ? `app://${policy.appLink}/${entityId}` : null;
}
