import { Timestamp } from 'firebase-admin/firestore';
import type { ErrorCode } from '../../src/platform/core/errors/codes';
import { storedFields } from '../../src/platform/kits/firestore/documents';
import {
  checkHandoverCode,
  courierPresence,
  codeProof,
  HANDOVER_CODE_ATTEMPTS,
  handoverCodeError,
  handoverProofDocument,
  newHandoverCode,
  newHandoverCodeState,
  photoProof,
  proveHandover,
  type HandoverCodeState,
  type HandoverPhotoLookup,
} from '../../src/platform/kits/handover/handover';
import { HandoverProofBodySchema, handoverProofView } from '../../src/platform/kits/handover/handover.schemas';

const T = 1_900_000_000_000;
const state = (code = '0427'): HandoverCodeState => ({ code, failedAttempts: 0, lockedAt: null });
// Codes of an existing module stand in for the caller's own (the kit takes them as arguments).
const codes = { wrong: 'RIDE_TRANSITION' as ErrorCode, locked: 'RIDE_NOT_ALLOWED' as ErrorCode };

describe('platform/kits/handover: codes', () => {
  it('makes 4-digit codes, leading zeros kept, spread over the whole range', () => {
    const many = Array.from({ length: 4000 }, () => newHandoverCode());
    for (const code of many) expect(code).toMatch(/^\d{4}$/);
    // 4,000 draws from 10,000 values: far more than 3,000 distinct ones unless the source is broken or biased.
    expect(new Set(many).size).toBeGreaterThan(3000);
    expect(many.some((c) => c.startsWith('0'))).toBe(true);
    expect(newHandoverCodeState()).toEqual({ code: expect.stringMatching(/^\d{4}$/), failedAttempts: 0, lockedAt: null });
  });

  it('a right code matches and changes nothing; a wrong one is counted with the tries left', () => {
    expect(checkHandoverCode(state(), '0427', T)).toEqual({ outcome: 'MATCH', state: state() });
    const wrong = checkHandoverCode(state(), '0428', T);
    expect(wrong).toEqual({ outcome: 'WRONG', state: { code: '0427', failedAttempts: 1, lockedAt: null }, attemptsLeft: 4 });
    // "427", "04270", digits of another script: wrong, never a match by prefix or by number.
    for (const given of ['427', '04270', '٠٤٢٧', '', '0427 ']) expect(checkHandoverCode(state(), given, T).outcome).toBe('WRONG');
  });

  it('the fifth wrong code locks code-proof; after that even the right code is refused', () => {
    let s = state();
    const outcomes: string[] = [];
    for (let i = 0; i < HANDOVER_CODE_ATTEMPTS; i++) {
      const check = checkHandoverCode(s, '9999', T + i);
      outcomes.push(check.outcome);
      s = check.state;
    }
    expect(outcomes).toEqual(['WRONG', 'WRONG', 'WRONG', 'WRONG', 'LOCKED']);
    expect(s).toEqual({ code: '0427', failedAttempts: 5, lockedAt: T + 4 });
    expect(checkHandoverCode(s, '0427', T + 10)).toEqual({ outcome: 'LOCKED', state: s, attemptsLeft: 0 });
    // A smaller limit given by the caller.
    expect(checkHandoverCode(state(), '1111', T, 1)).toMatchObject({ outcome: 'LOCKED', state: { lockedAt: T } });
  });

  it('a wrong code after some right ones still counts: matches do not reset the tries', () => {
    const once = checkHandoverCode({ ...state(), failedAttempts: 3 }, '0427', T);
    expect(once.state.failedAttempts).toBe(3);
    expect(checkHandoverCode(once.state, '0000', T)).toMatchObject({ outcome: 'WRONG', attemptsLeft: 1 });
  });

  it('answers a wrong code 422 with the tries left and a locked one 409, with the caller codes', () => {
    const wrong = handoverCodeError(checkHandoverCode(state(), '1234', T), codes)!;
    expect([wrong.statusCode, wrong.code, wrong.details]).toEqual([422, 'RIDE_TRANSITION', { attemptsLeft: 4 }]);
    const locked = handoverCodeError(checkHandoverCode({ ...state(), lockedAt: T }, '0427', T), codes)!;
    expect([locked.statusCode, locked.code]).toEqual([409, 'RIDE_NOT_ALLOWED']);
    expect(handoverCodeError(checkHandoverCode(state(), '0427', T), codes)).toBeUndefined();
  });
});

describe('platform/kits/handover: photos and proofs', () => {
  const uploads: Record<string, { ownerId: string; id: string; url: string }> = {
    p1: { ownerId: 'courier', id: 'p1', url: 'https://cdn.example/p1.jpg' },
    p2: { ownerId: 'someone-else', id: 'p2', url: 'https://cdn.example/p2.jpg' },
  };
  // As the media face's attachableImage answers: the owner's READY image, else undefined.
  const lookup: HandoverPhotoLookup = async (ownerId, id) => {
    const u = uploads[id];
    return u && u.ownerId === ownerId ? { id: u.id, url: u.url } : undefined;
  };

  it("takes only the courier's own image upload as a photo proof", async () => {
    expect(await photoProof(lookup, 'courier', 'p1', T)).toEqual({
      method: 'PHOTO',
      photo: { id: 'p1', url: 'https://cdn.example/p1.jpg' },
      by: 'courier',
      at: T,
    });
    expect(await photoProof(lookup, 'courier', 'p2', T)).toBeUndefined();
    expect(await photoProof(lookup, 'courier', 'missing', T)).toBeUndefined();
    expect(codeProof('courier', T)).toEqual({ method: 'CODE', photo: null, by: 'courier', at: T });
  });

  it('a request body gives either the code or a photo id, and the code is exactly 4 digits', () => {
    expect(HandoverProofBodySchema.parse({ code: '0427' })).toEqual({ code: '0427' });
    expect(HandoverProofBodySchema.parse({ photoId: ' p1 ' })).toEqual({ photoId: 'p1' });
    for (const bad of [{}, { code: '0427', photoId: 'p1' }, { code: '427' }, { code: 427 }, { code: '04a7' }, { photoId: '' }]) {
      const parsed = HandoverProofBodySchema.safeParse(bad);
      expect([bad, parsed.success]).toEqual([bad, false]);
      expect(parsed.error!.issues[0].path.length).toBeGreaterThan(0); // names a field
    }
  });

  it('stores the proof time as a Timestamp and shows it as an ISO time', () => {
    const proof = codeProof('courier', T);
    const document = () => handoverProofDocument('The delivery proof.');
    expect(storedFields(document, proof)).toEqual({ ...proof, at: Timestamp.fromMillis(T) });
    expect(handoverProofView(proof)).toEqual({ ...proof, at: '2030-03-17T17:46:40.000Z' });
  });
});

describe('proveHandover', () => {
  const place = { lat: 10.7769, lng: 106.7009 };
  const since = T - 60_000;
  const check = (photoAt: number, position: { lat: number; lng: number; at: number } | null) =>
    proveHandover(
      {
        photos: async (owner, id) => (owner === 'courier' && id === 'p1' ? { id, url: 'https://x/p1', createdAt: photoAt } : undefined),
        positions: async () => position,
      },
      { courierId: 'courier', photoId: 'p1', place, radiusM: 300, maxAgeMs: 600_000, since, at: T },
    );

  it('a photo uploaded and a position written since the handover began, near the place: proved', async () => {
    expect(await check(since + 1, { ...place, at: T - 1_000 })).toMatchObject({
      outcome: 'PROVED',
      proof: { method: 'PHOTO', photo: { id: 'p1' }, by: 'courier' },
    });
  });

  it('a photo from before (an earlier handover) proves nothing, wherever the courier is', async () => {
    expect(await check(since - 1, { ...place, at: T - 1_000 })).toEqual({ outcome: 'NOT_YOURS' });
  });

  it('a position from before, a stale one or none counts as too far; far away is too far with its distance', async () => {
    expect(await check(since + 1, { ...place, at: since - 1 })).toEqual({ outcome: 'TOO_FAR', distanceM: null, radiusM: 300 });
    expect(await check(since + 1, { ...place, at: T - 600_001 })).toEqual({ outcome: 'TOO_FAR', distanceM: null, radiusM: 300 });
    expect(await check(since + 1, null)).toEqual({ outcome: 'TOO_FAR', distanceM: null, radiusM: 300 });
    expect(await check(since + 1, { lat: place.lat + 0.01, lng: place.lng, at: T - 1_000 })).toMatchObject({
      outcome: 'TOO_FAR',
      distanceM: expect.any(Number),
    });
  });
});

describe('courierPresence', () => {
  const place = { lat: 10.7769, lng: 106.7009 };
  const at = (position: { lat: number; lng: number; at: number } | null, tx?: unknown) =>
    courierPresence(async (id, given) => (id === 'courier' && given === tx ? position : null), {
      courierId: 'courier',
      place,
      radiusM: 300,
      maxAgeMs: 120_000,
      since: 0,
      at: T,
      tx: tx as never,
    });

  it('near by a fresh position (read in the given transaction); far, stale or unknown is TOO_FAR (distance null when not known)', async () => {
    const tx = { marker: true };
    expect(await at({ lat: place.lat + 0.001, lng: place.lng, at: T - 1_000 }, tx)).toEqual({ outcome: 'NEAR', distanceM: 111 });
    expect(await at({ ...place, at: T - 120_001 })).toEqual({ outcome: 'TOO_FAR', distanceM: null, radiusM: 300 });
    expect(await at(null)).toEqual({ outcome: 'TOO_FAR', distanceM: null, radiusM: 300 });
    expect(await at({ lat: place.lat + 0.01, lng: place.lng, at: T - 1_000 })).toEqual({ outcome: 'TOO_FAR', distanceM: 1112, radiusM: 300 });
  });
});
