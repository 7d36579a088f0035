import { randomInt } from 'node:crypto';

// The hand-over proof of a delivery: a 4-digit code the consumer sees and tells the courier, with a limit of wrong
// tries (then a photo proves it). Local until the handover kit (platform/kits/handover) is merged: these two
// functions become its `newHandoverCode` and checker.

/** A random 4-digit code (leading zeros kept). */
export function newHandoverCode(): string {
  return String(randomInt(0, 10_000)).padStart(4, '0');
}

/** `locked`: the tries were used up before this one (it is not counted); else `attemptsLeft` after counting it. */
export type HandoverCheck = { ok: true } | { ok: false; locked: boolean; attemptsLeft: number };

/** A code entered against the stored one, `attempts` wrong tries already made, at most `maxAttempts`. */
export function checkHandoverCode(stored: { code: string; attempts: number }, entered: string, maxAttempts: number): HandoverCheck {
  if (stored.attempts >= maxAttempts) return { ok: false, locked: true, attemptsLeft: 0 };
  if (entered === stored.code) return { ok: true };
  return { ok: false, locked: false, attemptsLeft: Math.max(0, maxAttempts - stored.attempts - 1) };
}
