import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Transaction } from 'firebase-admin/firestore';
import * as z from 'zod/mini';
import { ConflictError, UnprocessableError, type AppError } from '../../core/errors/app-error';
import type { ErrorCode } from '../../core/errors/codes';
import { describe, timestamp } from '../firestore/documents';
import { distanceMeters, type LatLng } from '../geo/geo';

// Proving a handover (a courier picking up or delivering an order, a parcel changing hands): a 4-digit code the
// receiving person reads out, or, when the code cannot be used (locked after too many wrong tries, nobody there), a
// photo the courier took and uploaded. The code's state (the code and the wrong tries) is kept by the module on a
// record only the API and the receiving person read: the courier must never see it.

export const HANDOVER_CODE_DIGITS = 4;
/** Wrong codes after which code-proof is locked for this handover: the courier must prove it with a photo. */
export const HANDOVER_CODE_ATTEMPTS = 5;

/** A new handover code: 4 digits (0000–9999) from the operating system's secure random source. */
export function newHandoverCode(): string {
  return String(randomInt(0, 10 ** HANDOVER_CODE_DIGITS)).padStart(HANDOVER_CODE_DIGITS, '0');
}

/** What a module stores for one handover's code proof (epoch ms in the record). */
export interface HandoverCodeState {
  code: string;
  /** Wrong codes given so far. */
  failedAttempts: number;
  /** When code-proof was locked (the last allowed wrong code), else null. */
  lockedAt: number | null;
}

export const newHandoverCodeState = (): HandoverCodeState => ({ code: newHandoverCode(), failedAttempts: 0, lockedAt: null });

export type HandoverCodeCheck =
  | { outcome: 'MATCH'; state: HandoverCodeState }
  | { outcome: 'WRONG'; state: HandoverCodeState; attemptsLeft: number }
  | { outcome: 'LOCKED'; state: HandoverCodeState; attemptsLeft: 0 };

/** Equal strings, in a time that does not depend on where they differ (nor on the given one's length). */
function sameCode(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  // Compared against itself when the lengths differ: the same work, and false.
  return timingSafeEqual(a, b.length === a.length ? b : a) && b.length === a.length;
}

/**
 * Checks a given code. WRONG counts the try and LOCKED says code-proof is over (the last allowed wrong code, or any
 * code once locked, even the right one): the caller must store `state` in its transaction and commit it before it
 * answers the error (`handoverCodeError`), since throwing inside would roll the count back and allow endless guesses.
 */
export function checkHandoverCode(state: HandoverCodeState, given: string, at: number, maxAttempts = HANDOVER_CODE_ATTEMPTS): HandoverCodeCheck {
  if (state.lockedAt !== null || state.failedAttempts >= maxAttempts) return { outcome: 'LOCKED', state, attemptsLeft: 0 };
  if (sameCode(state.code, given)) return { outcome: 'MATCH', state };
  const failedAttempts = state.failedAttempts + 1;
  if (failedAttempts >= maxAttempts) return { outcome: 'LOCKED', state: { ...state, failedAttempts, lockedAt: at }, attemptsLeft: 0 };
  return { outcome: 'WRONG', state: { ...state, failedAttempts }, attemptsLeft: maxAttempts - failedAttempts };
}

/** The answer to a refused code (undefined for a match), with the module's codes: 422 wrong (`attemptsLeft`), 409 locked. */
export function handoverCodeError(check: HandoverCodeCheck, codes: { wrong: ErrorCode; locked: ErrorCode }): AppError | undefined {
  if (check.outcome === 'WRONG') return new UnprocessableError('The handover code is wrong', { attemptsLeft: check.attemptsLeft }).withCode(codes.wrong);
  if (check.outcome === 'LOCKED')
    return new ConflictError('Too many wrong handover codes: prove the handover with a photo', { attemptsLeft: 0 }).withCode(codes.locked);
  return undefined;
}

/** A media reference: one of the caller's READY image uploads (the media face's `attachableImage`). */
export type HandoverPhoto = { id: string; url: string };
/** How a photo id is looked up for its owner (with its upload time): pass the media face's `attachableImage`. */
export type HandoverPhotoLookup = (ownerId: string, photoId: string, tx?: Transaction) => Promise<(HandoverPhoto & { createdAt?: number }) | undefined>;

/** How a handover was proved, by whom and when: what the module stores with the status change. */
export interface HandoverProof {
  method: 'CODE' | 'PHOTO';
  photo: HandoverPhoto | null;
  by: string;
  at: number;
}

export const codeProof = (by: string, at: number): HandoverProof => ({ method: 'CODE', photo: null, by, at });

/**
 * The photo proof of `courierId` with `photoId`: only their own READY image upload counts (another user's upload, a
 * missing one, audio or one still uploading: undefined, the same answer for each). Reads in `tx` when given one.
 */
export async function photoProof(
  lookup: HandoverPhotoLookup,
  courierId: string,
  photoId: string,
  at: number,
  tx?: Transaction,
): Promise<HandoverProof | undefined> {
  const photo = await lookup(courierId, photoId, tx);
  return photo ? { method: 'PHOTO', photo: { id: photo.id, url: photo.url }, by: courierId, at } : undefined;
}

/** Where the courier last was, as the driver module's location telemetry knows it (`at`: when it was written). */
export interface CourierPosition {
  lat: number;
  lng: number;
  at: number;
}
/** How a courier's last known position is read (the driver face's `jobPool.lastPosition`); null: none. */
export type CourierPositionLookup = (courierId: string, tx?: Transaction) => Promise<CourierPosition | null>;

/** The courier's presence at a handover's place: near, or too far (`distanceM` null: no fresh position). */
export type PresenceCheck = { outcome: 'NEAR'; distanceM: number } | { outcome: 'TOO_FAR'; distanceM: number | null; radiusM: number };

/** A photo proof checked: proved, not the courier's own READY image, or taken away from the place. */
export type PhotoHandoverCheck = { outcome: 'PROVED'; proof: HandoverProof } | { outcome: 'NOT_YOURS' } | Extract<PresenceCheck, { outcome: 'TOO_FAR' }>;

export interface PresenceInput {
  courierId: string;
  place: LatLng;
  radiusM: number;
  /** A position older than this (at `at`) is not known. */
  maxAgeMs: number;
  /** Nor one written before this (the handover's start); none: any recent one counts. */
  since?: number;
  at: number;
  tx?: Transaction;
}

/** Whether a known position is within `radiusM` of `place`, written no earlier than `since` and no older than `maxAgeMs`. */
export function presenceOf(position: CourierPosition | null, input: Omit<PresenceInput, 'courierId' | 'tx'>): PresenceCheck {
  const fresh = position !== null && position.at >= (input.since ?? 0) && input.at - position.at <= input.maxAgeMs;
  const distanceM = fresh ? Math.round(distanceMeters(position, input.place)) : null;
  if (distanceM === null || distanceM > input.radiusM) return { outcome: 'TOO_FAR', distanceM, radiusM: input.radiusM };
  return { outcome: 'NEAR', distanceM };
}

/**
 * Whether the courier is where a handover happens, by their last known position: NEAR, or TOO_FAR (known to be
 * farther than `radiusM`, or not known: `distanceM` null; the caller decides what an unknown position means). Reads
 * in `tx` when given one.
 */
export async function courierPresence(positions: CourierPositionLookup, input: PresenceInput): Promise<PresenceCheck> {
  return presenceOf(await positions(input.courierId, input.tx), input);
}

/**
 * A photo proves a handover only where it happens: the photo must be the courier's own READY image upload, and the
 * courier's last known position (no older than `maxAgeMs`) within `radiusM` of `place` (the store or sender at pickup,
 * the drop-off at delivery). A photo is what a courier sends when nobody reads out a code, so nothing else proves
 * they were there; a code proves presence by itself and is checked with `checkHandoverCode`. No position, or a stale
 * one, counts as too far (`distanceM` null). Both must come from this handover: a photo uploaded, and a position
 * written, no earlier than `since` (the assignment or the pickup), so an old photo or position proves nothing. Reads
 * in `tx` when given one.
 */
export async function proveHandover(
  lookups: { photos: HandoverPhotoLookup; positions: CourierPositionLookup },
  input: { photoId: string; since: number } & PresenceInput,
): Promise<PhotoHandoverCheck> {
  const [photo, position] = await Promise.all([lookups.photos(input.courierId, input.photoId, input.tx), lookups.positions(input.courierId, input.tx)]);
  if (!photo || (photo.createdAt ?? 0) < (input.since ?? 0)) return { outcome: 'NOT_YOURS' };
  const presence = presenceOf(position, input);
  if (presence.outcome === 'TOO_FAR') return presence;
  return { outcome: 'PROVED', proof: { method: 'PHOTO', photo: { id: photo.id, url: photo.url }, by: input.courierId, at: input.at } };
}

/** The answer to a photo taken too far from the place (409 with the module's code, `distanceM` and `radiusM`); undefined otherwise. */
export function handoverTooFarError(check: PhotoHandoverCheck, code: ErrorCode): AppError | undefined {
  if (check.outcome !== 'TOO_FAR') return undefined;
  return new ConflictError('Your last known position is too far from the handover place for a photo proof: use the code, or get closer', {
    distanceM: check.distanceM,
    radiusM: check.radiusM,
  }).withCode(code);
}

/** The proof as a listened document stores it (a Timestamp `at`): a field of the module's document schema. */
export const handoverProofDocument = (text: string) =>
  describe(
    z.object({
      method: describe(z.enum(['CODE', 'PHOTO']), 'CODE: the receiving person read out the code; PHOTO: the courier uploaded a photo.'),
      photo: describe(z.nullable(z.object({ id: z.string(), url: z.string() })), 'The photo (a media upload of the courier), for PHOTO.'),
      by: describe(z.string(), 'Who proved it (the courier).'),
      at: timestamp('when the handover was proved.'),
    }),
    text,
  );
