// The spec's event matrix, push channels, sounds and deep links as one table of data.
// The hub (hub.ts) reads it; verticals only name an event.
export const SURFACES = ['CON', 'PAR', 'DRV'] as const;
export type Surface = (typeof SURFACES)[number];

export const SOCIAL_KINDS = ['SOCIAL_LIKE', 'SOCIAL_COMMENT', 'SOCIAL_FOLLOW', 'SOCIAL_MENTION', 'SOCIAL_SHARE'] as const;
export const INBOX_KINDS = ['CHAT_MESSAGE', 'CALL_INCOMING', 'CALL_MISSED', 'RIDE', 'ORDER', 'BOOKING', 'WALLET', 'SYSTEM', ...SOCIAL_KINDS] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export const REALTIME_EVENTS = ['message:new', 'call:ring', 'call:ended', 'ride:status', 'ride:location'] as const;
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

const HOUR = 3600;
const link = (tab: string, screen: string): DeepLinkTarget => ({ tab, screen });
const booking = (pattern: string, screen: string): EventPolicy => ({
  pattern,
  kind: 'BOOKING',
  recipients: ['CON', 'PAR'],
  push: 'allowed',
  realtime: null,
  sfx: 'notif_order',
  androidChannel: 'app-orders',
  preference: 'order',
  deepLink: { CON: link('MapTab', screen), PAR: link('BookingsTab', 'BookingDetail') },
  appLink: null,
  collapse: true,
  ttlSec: 24 * HOUR,
});
const ride = (pattern: string, recipients: readonly Surface[], sfx: string, con: DeepLinkTarget, drv?: DeepLinkTarget): EventPolicy => ({
  pattern,
  kind: 'RIDE',
  recipients,
  push: 'allowed',
  realtime: 'ride:status',
  sfx,
  androidChannel: 'app-rides',
  preference: 'ride',
  deepLink: drv ? { CON: con, DRV: drv } : { CON: con },
  appLink: 'rides',
  collapse: true,
  ttlSec: HOUR,
});
const order = (pattern: string, recipients: readonly Surface[]): EventPolicy => ({
  pattern,
  kind: 'ORDER',
  recipients,
  push: 'allowed',
  realtime: null,
  sfx: 'notif_order',
  androidChannel: 'app-orders',
  preference: 'order',
  deepLink: { CON: link('MapTab', 'OrderTrack'), PAR: link('OrdersTab', 'OrderDetail') },
  appLink: 'orders',
  collapse: true,
  ttlSec: 6 * HOUR,
});

export const EVENT_POLICIES: readonly EventPolicy[] = [
  { pattern: 'chat.message', kind: 'CHAT_MESSAGE', recipients: ['CON', 'PAR', 'DRV'], push: 'allowed', realtime: 'message:new', sfx: 'notif_message', androidChannel: 'app-chat', preference: 'chat',
    deepLink: { CON: link('ChatTab', 'ChatThread'), PAR: link('ChatTab', 'ChatThread'), DRV: link('ChatTab', 'ChatInbox') }, appLink: 'chat', collapse: false, ttlSec: 24 * HOUR },
  { pattern: 'call.incoming', kind: 'CALL_INCOMING', recipients: ['CON'], push: 'always', realtime: 'call:ring', sfx: 'call_ringtone_incoming', androidChannel: 'app-calls', preference: null,
    deepLink: { CON: link('ChatTab', 'Call'), PAR: link('ChatTab', 'Call'), DRV: link('ChatTab', 'ChatInbox') }, appLink: 'chat', collapse: true, ttlSec: 30 },
  { pattern: 'call.missed', kind: 'CALL_MISSED', recipients: ['CON'], push: 'allowed', realtime: 'call:ended', sfx: 'call_missed', androidChannel: 'app-calls', preference: 'chat',
    deepLink: { CON: link('ChatTab', 'CallDetail'), PAR: link('ChatTab', 'CallDetail'), DRV: link('ChatTab', 'ChatInbox') }, appLink: 'chat', collapse: true, ttlSec: 24 * HOUR },
  ride('ride.matched', ['CON', 'DRV'], 'ride_driver_assigned', link('MapTab', 'RideDetail'), link('TripTab', 'InTrip')),
  ride('ride.arrived', ['CON'], 'ride_driver_assigned', link('MapTab', 'RideDetail')),
  ride('ride.pickup', ['CON'], 'ride_trip_started', link('MapTab', 'RideDetail')),
  ride('ride.completed', ['CON', 'DRV'], 'ride_trip_completed', link('MapTab', 'RideDetail'), link('TripTab', 'TripHistory')),
  ride('ride.cancelled', ['CON', 'DRV'], 'notif_ride', link('MapTab', 'RideDetail'), link('TripTab', 'TripHistory')),
  { pattern: 'ride:location', kind: null, recipients: ['CON', 'DRV'], push: 'never', realtime: 'ride:location', sfx: null, androidChannel: null, preference: null,
    deepLink: {}, appLink: 'rides', collapse: false, ttlSec: 0, telemetry: true },
  order('order.created', ['CON', 'PAR']),
  order('order.confirmed', ['CON']),
  order('order.cancelled', ['CON', 'PAR']),
  booking('booking.hotel.*', 'HotelBookings'),
  booking('booking.parking.*', 'ParkingBookings'),
  booking('booking.rental.viewing*', 'RentalViewings'),
  booking('booking.medical.created', 'MedicalAppointments'),
  booking('booking.school.created', 'SchoolConsultations'),
  booking('booking.homeservice.created', 'HomeServicesBookings'),
  { pattern: 'rental.deposit.*', kind: 'WALLET', recipients: ['CON', 'PAR'], push: 'allowed', realtime: null, sfx: 'notif_payment', androidChannel: 'app-orders', preference: 'wallet',
    deepLink: { CON: link('MapTab', 'RentalDeposit'), PAR: link('WalletTab', 'Deposits') }, appLink: null, collapse: true, ttlSec: 24 * HOUR },
  { pattern: 'social.*', kind: 'SOCIAL_*', recipients: ['CON'], push: 'allowed', realtime: null, sfx: 'notif_default', androidChannel: 'app-chat', preference: 'social',
    deepLink: { CON: link('SocialTab', 'SocialHome') }, appLink: null, collapse: false, ttlSec: 24 * HOUR },
  { pattern: 'security.device', kind: 'SYSTEM', recipients: ['CON'], push: 'always', realtime: null, sfx: 'notif_urgent', androidChannel: 'app-chat', preference: null,
    deepLink: { CON: link('AccountTab', 'AuthSessions') }, appLink: null, collapse: false, ttlSec: 24 * HOUR },
  { pattern: 'admin.broadcast', kind: 'SYSTEM', recipients: ['CON', 'PAR', 'DRV'], push: 'allowed', realtime: null, sfx: 'notif_promo', androidChannel: 'app-orders', preference: 'promo',
    deepLink: { CON: link('HomeTab', 'Inbox'), PAR: link('HomeTab', 'Inbox'), DRV: link('HomeTab', 'Inbox') }, appLink: null, collapse: false, ttlSec: 72 * HOUR },
];

function matches(pattern: string, event: string): boolean {
  if (!pattern.endsWith('*')) return pattern === event;
  const prefix = pattern.slice(0, -1);
  return event.startsWith(prefix) && event.length > prefix.length;
}

export function policyFor(event: string): EventPolicy | undefined {
  return EVENT_POLICIES.find((p) => p.pattern === event) ?? EVENT_POLICIES.find((p) => matches(p.pattern, event));
}

// social.like -> SOCIAL_LIKE (unknown social suffixes keep their own SOCIAL_ kind).
export function inboxKindOf(policy: EventPolicy, event: string): InboxKind | null {
  if (policy.kind !== 'SOCIAL_*') return policy.kind;
  return `SOCIAL_${event.slice('social.'.length).replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}` as InboxKind;
}

export function appLinkOf(policy: EventPolicy, entityId: string): string | null {
  return policy.appLink ? `app://${policy.appLink}/${entityId}` : null;
}
