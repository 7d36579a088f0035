import type * as zm from 'zod/mini';
import type { SURFACES } from './events';

// The data payload of push and realtime messages, defined once: zod/mini builds it for the Firestore documents
// (notifications.model), classic zod for the REST answers and OpenAPI (notifications.schemas), since
// zod-to-openapi reads classic schemas only. Both flavours share zod's core (object, string, record and the
// describe check), so one builder makes either; the surface enum is passed in (classic: the `Surface` component).

/** What the builder uses of a zod namespace; classic zod is handed in as this (it has the same functions). */
export type PayloadZod = Pick<typeof zm, 'object' | 'string' | 'record' | 'describe'>;

export const NOTIFICATION_PAYLOAD_TEXT =
  'The data payload of push and realtime messages, stored with inbox items and realtime events (push sends it as FCM data: every value a string, deepLink as JSON).';

export function notificationPayloadShape<S extends zm.ZodMiniType<(typeof SURFACES)[number]>>(z: PayloadZod, surface: S) {
  const text = <T extends zm.ZodMiniType>(schema: T, description: string) => schema.check(z.describe(description)) as T;
  return {
    event: text(z.string(), 'The event (e.g. `chat.message`, `ride.matched`).'),
    kind: text(z.string(), 'The inbox kind, or NONE (telemetry).'),
    notificationId: text(z.string(), 'Derived from event, entity, recipient and occurrence: a repeated delivery has the same id.'),
    entityId: text(z.string(), 'The ride, call, conversation… the event is about.'),
    sfx: text(z.string(), 'The sound to play in the foreground (a sound pack file stem), or empty.'),
    deepLink: text(
      z.object({ tab: z.string(), screen: z.string(), params: z.record(z.string(), z.string()) }),
      "Where a tap opens (params: `id`, `appLink` and the vertical's own).",
    ),
    surface,
  };
}
