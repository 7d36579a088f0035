/**
 * A promise's outcome, kept rather than thrown: reads started side by side whose refusals count only in an order the
 * caller decides (a replay check first, then the refusals). Users: the checkout's placing transaction, the booking
 * hold, the session check beside its per-user limit.
 */
export const settled = <T>(p: Promise<T>): Promise<{ value: T } | { err: unknown }> =>
  p.then(
    (value) => ({ value }),
    (err: unknown) => ({ err }),
  );
