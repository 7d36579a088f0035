import { randomInt, timingSafeEqual } from 'node:crypto';
import { ConflictError, UnprocessableError } from '../../platform/core/errors/app-error';
import type { HandoverCodeCheck, HandoverPort } from './delivery.ports';

// The hand-over port bound before the handover kit (platform/kits/handover, issue 32's couriers branch) is merged:
// the kit's contract (4 digits from the secure random source, a constant-time compare, an attempts limit after which
// only a photo proves the hand-over). At the merge delivery.wiring.ts binds the kit instead and this file goes.

const DIGITS = 4;
const DEFAULT_ATTEMPTS = 5;

function sameCode(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return timingSafeEqual(a, b.length === a.length ? b : a) && b.length === a.length;
}

export const handoverBeforeKit: HandoverPort = {
  newCodeState: () => ({ code: String(randomInt(0, 10 ** DIGITS)).padStart(DIGITS, '0'), failedAttempts: 0, lockedAt: null }),
  checkCode(state, given, at, maxAttempts = DEFAULT_ATTEMPTS): HandoverCodeCheck {
    if (state.lockedAt !== null || state.failedAttempts >= maxAttempts) return { outcome: 'LOCKED', state, attemptsLeft: 0 };
    if (sameCode(state.code, given)) return { outcome: 'MATCH', state };
    const failedAttempts = state.failedAttempts + 1;
    if (failedAttempts >= maxAttempts) return { outcome: 'LOCKED', state: { ...state, failedAttempts, lockedAt: at }, attemptsLeft: 0 };
    return { outcome: 'WRONG', state: { ...state, failedAttempts }, attemptsLeft: maxAttempts - failedAttempts };
  },
  codeError(check, codes) {
    if (check.outcome === 'WRONG') return new UnprocessableError('The hand-over code is wrong', { attemptsLeft: check.attemptsLeft }).withCode(codes.wrong);
    if (check.outcome === 'LOCKED')
      return new ConflictError('Too many wrong hand-over codes: prove the hand-over with a photo', { attemptsLeft: 0 }).withCode(codes.locked);
    return undefined;
  },
  codeProof: (by, at) => ({ method: 'CODE', photo: null, by, at }),
  async photoProof(lookup, courierId, photoId, at, tx) {
    const photo = await lookup(courierId, photoId, tx);
    return photo ? { method: 'PHOTO', photo: { id: photo.id, url: photo.url }, by: courierId, at } : undefined;
  },
};
